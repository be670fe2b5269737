/* SPDX-License-Identifier: Apache-2.0 */
/* huge_pinned: a pinned allocation of a huge page or more gets syncguard's
 * own memory instead of the driver's: anonymous, aligned to a huge page,
 * advised MADV_HUGEPAGE, populated, and page-locked with
 * cuMemHostRegister (the program's PORTABLE and DEVICEMAP flags mapped to
 * their registration twins; under unified addressing both are implied
 * anyway).
 *
 * Why: a guard is an mprotect over the copy's pages. On 4 KiB pages the
 * kernel rewrites one entry per page, twice per copy (guard, release), so a
 * 64 MiB copy's guard walks 32768 entries (issue #17: +590 us on the H200).
 * Over a whole transparent huge page it rewrites one PMD entry instead.
 * Only the 2 MiB-aligned spans that lie wholly inside the mapping can be
 * huge; the mapping is the page-rounded size, so the tail under 2 MiB stays
 * on small pages and costs no extra memory. A guard that covers part of a
 * huge page splits it (mprotect does) into small entries for good, which
 * costs at most two such spans per copy: the cost stops growing with the
 * copy. Guards never grow past the copy's pages, so every byte the copy
 * touches is guarded and no byte beyond its pages is.
 *
 * hugetlbfs (MAP_HUGETLB) is not used: it cannot be mprotected in parts
 * smaller than its page, and a copy need not start or end on one.
 *
 * A forked child gets the block exactly when it would get the driver's
 * allocation (MADV_DONTFORK where the driver's mapping is VM_DONTCOPY).
 * When the context it was allocated in is torn down (cuCtxDestroy, a
 * primary context reset or its last release), the driver frees its own
 * allocations: the block is unmapped then (sg_hugepin_ctx_gone).
 *
 * Not on Linux 5.9 to 5.18: there a write fault on a pinned anonymous page
 * whose write permission mprotect took away and gave back copies the page
 * (its reference count, raised by the pin, makes the kernel think it
 * shared), so after the first guard the program's page and the one the
 * device reaches part (the copy-on-write rework of 5.19 keeps pinned
 * pages). The driver's own allocation is a shared mapping of its device
 * file, never copied on write.
 *
 * Advice that would drop a block's pages (MADV_DONTNEED...) is refused as
 * on the driver's mapping (preload/libc/memlock.c).
 *
 * The program must never see a difference: WRITECOMBINED (registration
 * has no such flag), a machine without transparent huge pages, a kernel of
 * 5.9 to 5.18, and every failing step give the driver's allocation, as
 * without this option. */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "base/dl.h"
#include "base/kernel.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "base/page.h"
#include "base/stats.h"
#include "driver/driver.h"
#include "driver/entries.h"
#include "model/hugepin.h"
#include "model/model.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

static atomic_int usable_state; /* 0: not asked yet, 1: huge blocks usable, -1: not */
static size_t huge_bytes = 2u << 20;

/* The first line of a small sysfs file, "" if it cannot be read. */
static void read_line(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    if (!fgets(buf, (int)len, f))
        buf[0] = 0;
    fclose(f);
}

static void note(const char *why)
{
    SG_VLOG(1, "huge_pinned: %s; large pinned allocations stay the driver's (a guard on one "
               "then changes the entry of every page it covers)\n",
            why);
}

/* Why transparent huge pages cannot serve pinned blocks here (NULL: they
 * can): the kernel gives them to memory advised MADV_HUGEPAGE only with
 * "always" or "madvise" in enabled. Learns their size. */
static const char *thp_missing(void)
{
    char line[128], size[32];
    read_line(THP_DIR "enabled", line, sizeof line);
    read_line(THP_DIR "hpage_pmd_size", size, sizeof size);
    unsigned long long hb = strtoull(size, NULL, 10);
    if (hb > sg_page_size && (hb & (hb - 1)) == 0)
        huge_bytes = (size_t)hb;
    if (!line[0])
        return "this kernel has no transparent huge pages";
    return strstr(line, "[never]") ? "transparent huge pages are off (" THP_DIR "enabled: never)" : NULL;
}

/* Why this kernel cannot keep a pinned anonymous page the one the device
 * writes across a guard (NULL: it can; see the top of the file), in buf. A
 * release that cannot be read is taken for one that cannot: the program's
 * data first. */
static const char *kernel_parts_pins(char *buf, size_t len)
{
    struct utsname u;
    unsigned major, minor;
    if (uname(&u) != 0 || sg_parse_kernel_release(u.release, &major, &minor) != 0)
        return "the kernel's release cannot be read (uname)";
    if (!sg_kernel_cow_parts_pins(major, minor))
        return NULL;
    snprintf(buf, len, "Linux %s may copy a pinned page at the first write after a guard "
             "(5.9 to 5.18: the device would write a page the program no longer sees)", u.release);
    return buf;
}

/* Whether pinned blocks can be syncguard's here, asked once; said at
 * verbosity=1 when not. */
static int huge_usable(void)
{
    int s = atomic_load(&usable_state);
    if (s)
        return s > 0;
    char buf[256];
    const char *why = thp_missing();
    if (!why)
        why = kernel_parts_pins(buf, sizeof buf);
    int expected = 0;
    if (atomic_compare_exchange_strong(&usable_state, &expected, why ? -1 : 1) && why)
        note(why);
    return !why;
}

/* len bytes (page multiple) of fresh memory starting on a huge page
 * boundary: a larger mapping, trimmed at both ends. */
static void *map_aligned(size_t len)
{
    size_t span = len + huge_bytes;
    void *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uintptr_t lo = (uintptr_t)raw, at = (lo + huge_bytes - 1) & ~(uintptr_t)(huge_bytes - 1);
    if (at > lo)
        munmap(raw, at - lo);
    if (lo + span > at + len)
        munmap((void *)(at + len), lo + span - (at + len));
    return (void *)at;
}

/* Whether the mapping holding p is kept out of a forked child
 * (VM_DONTCOPY: "dc" among its VmFlags). */
static int dont_copy(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    char line[512];
    int in = 0, dc = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            in = lo <= (uintptr_t)p && (uintptr_t)p < hi;
        else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            dc = strstr(line, " dc") != NULL;
            break;
        }
    }
    if (f)
        fclose(f);
    return dc;
}

/* Whether a forked child gets the driver's pinned allocations: if not,
 * it must not get ours either (nor make the kernel copy them at fork, as
 * it does for pinned anonymous pages, splitting the parent's huge pages).
 * Asked once, of a one-byte allocation of the driver's. */
static int driver_dont_fork(void)
{
    static atomic_int known; /* 0: not asked, 1: kept out, -1: copied */
    int k = atomic_load(&known);
    if (k)
        return k > 0;
    void *q = NULL;
    if (SG_FORWARD(cuMemAllocHost_v2, &q, 1) != CUDA_SUCCESS || !q)
        return 0; /* asked again next time */
    k = dont_copy(q) ? 1 : -1;
    SG_FORWARD(cuMemFreeHost, q);
    atomic_store(&known, k);
    return k > 0;
}

/* Huge pages asked for (and kept out of forked children where the
 * driver's allocations are), then every page faulted in writable now, so
 * that the registration pins what the kernel gave the advice (huge where
 * it could) and the program's first touch costs no fault. */
static int advise_and_populate(void *p, size_t len)
{
    if (SG_NEXT(madvise)(p, len, MADV_HUGEPAGE) != 0)
        return -1;
    if (driver_dont_fork() && SG_NEXT(madvise)(p, len, MADV_DONTFORK) != 0)
        return -1;
    if (SG_NEXT(madvise)(p, len, MADV_POPULATE_WRITE) != 0) /* before Linux 5.14 */
        for (size_t off = 0; off < len; off += sg_page_size)
            ((volatile char *)p)[off] = 0;
    return 0;
}

/* The registration flags that give what the allocation's flags ask for;
 * -1 for a flag registration cannot give (WRITECOMBINED) or one unknown.
 * The driver's cuMemAllocHost memory is pinned for every context (it is
 * portable under unified addressing): so is a registration PORTABLE, or a
 * copy made in another context would find it pageable. */
static int register_flags(int host_alloc, unsigned flags, unsigned *rflags)
{
    const unsigned can = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP;
    if (host_alloc && (flags & ~can))
        return -1;
    if (!host_alloc)
        flags = CU_MEMHOSTALLOC_PORTABLE;
    *rflags = (flags & CU_MEMHOSTALLOC_PORTABLE ? CU_MEMHOSTREGISTER_PORTABLE : 0) |
              (flags & CU_MEMHOSTALLOC_DEVICEMAP ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
    return 0;
}

/* Registered and entered in the pinned table, or undone. */
static int pin(void *p, size_t n, int host_alloc, unsigned flags, unsigned rflags)
{
    CUresult r = SG_FORWARD(cuMemHostRegister_v2, p, n, rflags);
    if (r != CUDA_SUCCESS) {
        SG_ONCE(char why[96];
                snprintf(why, sizeof why, "cuMemHostRegister of %zu bytes failed (error %d)", n,
                         (int)r);
                note(why));
        return -1;
    }
    unsigned pf = SG_PINNED_HUGE | SG_PINNED_ALLOCATED | SG_PINNED_ALLOC_FLAGS(flags) |
                  (host_alloc ? 0 : SG_PINNED_VIA_ALLOC_HOST);
    struct sg_pin block = { (uintptr_t)p, n, pf, (uintptr_t)p, sg_current_ctx() };
    if (sg_pinned_add(&block) == 0)
        return 0;
    SG_FORWARD(cuMemHostUnregister, p);
    return -1;
}

CUresult sg_hugepin_alloc(int host_alloc, void **pp, size_t n, unsigned flags)
{
    unsigned rflags;
    size_t len = sg_page_up(n);
    if (!sg_opt.huge_pinned || len < n || register_flags(host_alloc, flags, &rflags) < 0 ||
        !huge_usable() || len < huge_bytes || len > SIZE_MAX - huge_bytes)
        return CUDA_ERROR_NOT_SUPPORTED;
    void *p = map_aligned(len);
    if (!p)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (advise_and_populate(p, len) != 0) {
        SG_ONCE(note("madvise(MADV_HUGEPAGE) failed"));
        munmap(p, len);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (pin(p, n, host_alloc, flags, rflags) != 0) {
        munmap(p, len);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    sg_stat_add(SG_STAT_pinned_huge, 1);
    SG_VLOG(2, "pinned allocation %p+%zu on huge pages\n", p, n);
    *pp = p;
    return CUDA_SUCCESS;
}

CUresult sg_hugepin_free(const struct sg_pin *b)
{
    CUresult r = SG_FORWARD(cuMemHostUnregister, (void *)b->base);
    if (r != CUDA_SUCCESS) {
        /* still registered and mapped: still the program's pinned memory */
        sg_pinned_add(b);
        return r;
    }
    munmap((void *)b->base, sg_page_up(b->size));
    return CUDA_SUCCESS;
}

void sg_hugepin_ctx_gone(const struct sg_pin *b)
{
    SG_VLOG(2, "pinned allocation %#lx+%zu on huge pages unmapped: its context was torn down\n",
            (unsigned long)b->base, b->size);
    /* A registration that outlived its context (the driver answers for it
     * still) is undone first; one the driver will not undo stays mapped:
     * memory it may still reach must not be handed to the next mmap. */
    if (sg_host_still_pinned(b->base)) {
        sg_hugepin_free(b);
        return;
    }
    munmap((void *)b->base, sg_page_up(b->size));
}

/* The driver's answers, asked once per kind of call: cuMemAllocHost, or
 * cuMemHostAlloc with PORTABLE and DEVICEMAP either way. */
static atomic_uint answers[5];
static atomic_uint asked; /* bit per slot */

/* Asks the driver what it says of a one-byte allocation made like the
 * program's. */
static CUresult ask_driver(unsigned pinned_flags, unsigned *answer)
{
    void *q = NULL;
    unsigned flags = SG_PINNED_ALLOC_FLAGS_OF(pinned_flags);
    CUresult r = pinned_flags & SG_PINNED_VIA_ALLOC_HOST ? SG_FORWARD(cuMemAllocHost_v2, &q, 1)
                                                         : SG_FORWARD(cuMemHostAlloc, &q, 1, flags);
    if (r != CUDA_SUCCESS)
        return r;
    r = SG_FORWARD(cuMemHostGetFlags, answer, q);
    SG_FORWARD(cuMemFreeHost, q);
    return r;
}

CUresult sg_hugepin_get_flags(unsigned pinned_flags, unsigned *answer)
{
    unsigned slot = pinned_flags & SG_PINNED_VIA_ALLOC_HOST ? 4 : SG_PINNED_ALLOC_FLAGS_OF(pinned_flags) & 3;
    if (!(atomic_load(&asked) & 1u << slot)) {
        unsigned a = 0;
        CUresult r = ask_driver(pinned_flags, &a);
        if (r != CUDA_SUCCESS)
            return r;
        atomic_store(&answers[slot], a);
        atomic_fetch_or(&asked, 1u << slot);
    }
    *answer = atomic_load(&answers[slot]);
    return CUDA_SUCCESS;
}

/* What the driver says when asked to register a page of one of its own
 * allocations, or to unregister one (measured on the H200, GPU run 28:
 * not CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, which the emulator gives).
 * Asked once, of a page the driver allocates; a driver that would
 * unregister its own allocation is not imitated (the block stays
 * registered: the call is refused as unregistered memory). */
static atomic_int refusals_known;
static atomic_int refusal_answers[2] = { CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                                         CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED };

static void ask_refusals(void)
{
    void *q = NULL;
    if (SG_FORWARD(cuMemAllocHost_v2, &q, sg_page_size) != CUDA_SUCCESS || !q)
        return; /* the defaults, asked again next time */
    CUresult reg = SG_FORWARD(cuMemHostRegister_v2, q, sg_page_size, 0);
    if (reg == CUDA_SUCCESS)
        SG_FORWARD(cuMemHostUnregister, q);
    CUresult unreg = SG_FORWARD(cuMemHostUnregister, q);
    SG_FORWARD(cuMemFreeHost, q);
    if (reg != CUDA_SUCCESS)
        atomic_store(&refusal_answers[0], (int)reg);
    if (unreg != CUDA_SUCCESS)
        atomic_store(&refusal_answers[1], (int)unreg);
    atomic_store(&refusals_known, 1);
}

CUresult sg_hugepin_refusal(int unregister)
{
    if (!atomic_load(&refusals_known))
        ask_refusals();
    return (CUresult)atomic_load(&refusal_answers[unregister != 0]);
}
