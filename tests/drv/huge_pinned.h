/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the huge_* tests (huge_pinned): whether this machine gives
 * transparent huge pages at all, and whether a pinned allocation is
 * syncguard's own huge-page mapping (advised MADV_HUGEPAGE: "hg" among
 * its VmFlags in /proc/self/smaps; the driver's allocations never are).
 * Static inline, so that a test using only some of them gets no warning
 * for the others. */
#ifndef HUGE_PINNED_H
#define HUGE_PINNED_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE (2u << 20)

static inline int huge_mapping(const void *p);

/* Whether MADV_HUGEPAGE shows on a mapping of our own: qemu-user ignores
 * madvise (and its /proc/self/smaps is the emulator's), so the advice
 * syncguard gives its blocks cannot be seen there. */
static inline int huge_advice_shows(void)
{
    size_t n = 2 * HUGE_PAGE;
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 0;
    int shows = madvise(m, n, MADV_HUGEPAGE) == 0 && huge_mapping(m) == 1;
    munmap(m, n);
    return shows;
}

/* Exits 77 (skip) where the kernel has transparent huge pages off (there
 * syncguard keeps the driver's allocations, which other tests cover), or
 * where the advice for them cannot be seen (qemu-user). */
static inline void huge_require(void)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
    if (!f || !fgets(line, sizeof line, f) || strstr(line, "[never]")) {
        printf("SKIP: no transparent huge pages on this machine\n");
        exit(77);
    }
    fclose(f);
    if (!huge_advice_shows()) {
        printf("SKIP: madvise(MADV_HUGEPAGE) does not show in /proc/self/smaps here "
               "(qemu-user ignores madvise)\n");
        exit(77);
    }
}

/* 1 if the mapping holding p is advised for huge pages, 0 if not, -1 if
 * no mapping holds p. */
static inline int huge_mapping(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    char line[512];
    int found = 0, hg = -1;
    uintptr_t a = (uintptr_t)p;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            found = lo <= a && a < hi;
        else if (found && strncmp(line, "VmFlags:", 8) == 0) {
            hg = strstr(line, " hg") != NULL;
            break;
        }
    }
    if (f)
        fclose(f);
    return hg;
}

#endif
