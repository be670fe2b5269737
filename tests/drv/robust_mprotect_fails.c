/* SPDX-License-Identifier: Apache-2.0 */
/* robust_mprotect_fails: syncguard cannot protect the pages of a copy
 * (mprotect fails) and must then let the copy run unguarded: one warning
 * line ("cannot protect the host pages of a copy"), no report, no crash,
 * the program's data exactly as without syncguard.
 *
 * How mprotect is made to fail, without help from syncguard:
 *   - where the kernel has mseal(2) (Linux 6.10+): the pinned buffer is
 *     three pages mapped by the program, sealed with mseal (as glibc and
 *     browsers seal memory), then registered with cuMemHostRegister; any
 *     mprotect of sealed memory fails with EPERM;
 *   - elsewhere: the buffer is an ordinary three-page mapping, registered,
 *     and the process then creates mappings until it reaches the kernel's
 *     limit (vm.max_map_count): guarding the middle page alone would split
 *     the buffer's mapping in three, which fails with ENOMEM.
 * Then, in both cases, a device-to-host copy into the middle page waits
 * behind a hold; the host reads it early (unguarded: nothing is seen, the
 * read finds the old bytes, as without syncguard), releases the hold,
 * synchronizes, and finds the copied bytes; a host-to-device copy from the
 * middle page (its guard, PROT_READ, fails the same way) delivers the
 * host's bytes.  Exit status 0.  "--vma" forces the second method.
 *
 * SG-EXIT: 0
 * SG-GREP: WARNING: syncguard: cannot protect the host pages of a copy
 * SG-NOGREP: SUMMARY: syncguard
 */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgt_robust.h"

#ifndef SYS_mseal
#define SYS_mseal 462                   /* x86-64 */
#endif

#define OLD 0x11
#define NEW 0xc3
#define HOST_BYTE 0x5e

static char *filler;
static size_t filler_bytes;

/* Creates mappings (alternate pages of one reserved region made readable)
 * until the kernel refuses one more: 0 when the limit was reached. */
static int reach_map_limit(size_t page)
{
    long max = 0;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (!f || fscanf(f, "%ld", &max) != 1 || max <= 0 || max > 4000000) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    filler_bytes = ((size_t)max + 64) * 2 * page;
    filler = mmap(NULL, filler_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
    if (filler == MAP_FAILED)
        return -1;
    for (size_t i = 1; 2 * i * page < filler_bytes; i++)
        if (mprotect(filler + (2 * i - 1) * page, page, PROT_READ) != 0)
            return errno == ENOMEM ? 0 : -1;
    return -1;
}

int main(int argc, char **argv)
{
    sgt_watchdog(60);
    int force_vma = argc > 1 && strcmp(argv[1], "--vma") == 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev, dev2;
    SGT_CHECK(cuMemAlloc(&dev, page));
    SGT_CHECK(cuMemAlloc(&dev2, page));
    SGT_CHECK(cuMemsetD8(dev, NEW, page));
    SGT_CHECK(cuMemsetD8(dev2, 0, page));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *buf = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *back = malloc(page);
    if (buf == MAP_FAILED || !back) {
        perror("mmap/malloc");
        return 2;
    }
    memset(buf, OLD, 3 * page);
    unsigned char *mid = buf + page;
    int sealed = !force_vma && syscall(SYS_mseal, buf, 3 * page, 0UL) == 0;
    SGT_CHECK(cuMemHostRegister(buf, 3 * page, 0));

    /* Everything that allocates is done before the map limit is reached:
     * a guarded copy into other pinned memory warms up syncguard and the
     * stream. */
    unsigned char *warm;
    SGT_CHECK(cuMemAllocHost((void **)&warm, page));
    SGT_CHECK(cuMemcpyDtoHAsync(warm, dev, page, s));
    SGT_CHECK(cuStreamSynchronize(s));
    sgt_hold *hold = sgt_hold_stream(s);
    printf("method: %s\n", sealed ? "mseal" : "the map count limit");
    fflush(stdout);
    if (!sealed && reach_map_limit(page) != 0) {
        printf("cannot make mprotect fail here (no mseal, no reachable map limit)\n");
        return 1;
    }

    /* The D2H copy: its guard cannot be set. */
    SGT_CHECK(cuMemcpyDtoHAsync(mid, dev, page, s));
    unsigned early_old = 0;
    for (size_t i = 0; i < page; i++)
        early_old += ((volatile unsigned char *)mid)[i] == OLD;      /* unseen */
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late_wrong = 0;
    for (size_t i = 0; i < page; i++)
        late_wrong += mid[i] != NEW;

    /* The H2D copy from the same page. */
    memset(mid, HOST_BYTE, page);
    SGT_CHECK(cuMemcpyHtoDAsync(dev2, mid, page, s));
    SGT_CHECK(cuStreamSynchronize(s));

    if (filler)
        munmap(filler, filler_bytes);
    SGT_CHECK(cuMemcpyDtoH(back, dev2, page));
    unsigned h2d_wrong = 0;
    for (size_t i = 0; i < page; i++)
        h2d_wrong += back[i] != HOST_BYTE;
    printf("D2H: early read saw %u of %zu old bytes (unguarded, as without syncguard); after "
           "sync %u bytes wrong; H2D: %u bytes wrong\n", early_old, page, late_wrong, h2d_wrong);
    SGT_CHECK(cuMemHostUnregister(buf));
    SGT_CHECK(cuMemFreeHost(warm));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuMemFree(dev2));
    SGT_CHECK(cuStreamDestroy(s));
    free(back);
    return sgt_check_line(early_old == page && !late_wrong && !h2d_wrong);
}
