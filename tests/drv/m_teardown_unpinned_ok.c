/* SPDX-License-Identifier: Apache-2.0 */
/* m_teardown_unpinned_ok: when a context is torn down (cuCtxDestroy,
 * cuDevicePrimaryCtxReset, the last cuDevicePrimaryCtxRelease) the driver
 * frees its pinned allocations and drops its registrations, so that
 * memory is pinned no more: program memory it had registered is pageable
 * again, and so is memory the program maps where an allocation of the
 * driver's was (a large WRITECOMBINED one, which huge_pinned leaves to the
 * driver). An async copy into either completes before its call returns,
 * and reading it right after is no race: syncguard must have forgotten
 * both ranges (kept, the copies would be guarded and the reads reported).
 * That pinned memory allocated after a teardown is guarded as ever:
 * huge_ctx_destroy_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "ctx_teardown.h"
#include "sgtest.h"

#define LARGE (4u << 20) /* a mapping of the driver's own, not a slot of its pool */

/* Reads the words a pageable copy brought right after its call. */
static unsigned pageable_copy(CUstream s, CUdeviceptr dev, uint32_t *host)
{
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold); /* the copy waits for it */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    return SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
}

/* Pageable memory mapped where the driver's allocation was, or NULL where
 * the driver keeps the address reserved (a real one may: then no program
 * mapping can land there, and nothing is to check). Not over the address:
 * that would take it from the driver. The emulator unmaps it. */
static uint32_t *where_it_was(void *old)
{
    uint32_t *p = mmap(old, SGT_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == old)
        return p;
    printf("the driver keeps %p mapped after the teardown\n", old);
    SGT_EXPECT(!sgt_on_emulator());
    if (p != MAP_FAILED)
        munmap(p, SGT_BYTES); /* a kernel before 4.17 took the address as a hint */
    return NULL;
}

static unsigned unpinned_by(enum td_kind kind, CUstream s, CUdeviceptr dev)
{
    uint32_t *reg = mmap(NULL, SGT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *wc;
    SGT_EXPECT(reg != MAP_FAILED);
    td_enter(kind);
    SGT_CHECK(cuMemHostRegister(reg, SGT_BYTES, 0));
    SGT_CHECK(cuMemHostAlloc(&wc, LARGE, CU_MEMHOSTALLOC_WRITECOMBINED));
    td_teardown(kind);
    uint32_t *over = where_it_was(wc); /* first: the emulator maps memory for the holds */
    unsigned wrong = pageable_copy(s, dev, reg);
    if (over)
        wrong += pageable_copy(s, dev, over);
    printf("after %s: %u words wrong\n", td_names[kind], wrong);
    munmap(reg, SGT_BYTES);
    if (over)
        munmap(over, SGT_BYTES);
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    td_start();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(SGT_WORDS, SGT_NEW);
    unsigned wrong = unpinned_by(TD_DESTROY, s, dev) + unpinned_by(TD_RESET, s, dev) +
                     unpinned_by(TD_RELEASE, s, dev);
    SGT_CHECK(cuMemFree(dev));
    return sgt_verdict(wrong, "right after pageable copies into memory pinned until a teardown");
}
