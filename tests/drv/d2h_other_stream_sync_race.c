/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_other_stream_sync_race: the copy runs on non-blocking stream A; the
 * host synchronizes only non-blocking stream B (which has work of its own).
 * Nothing orders A's copy before B's work, so reading the pinned
 * destination afterwards is a race.  Twin: d2h_stream_wait_event, where B
 * is made to wait for A.
 *
 * A's hold is set to go at the next host wait only after
 * cuStreamSynchronize(B) (which must not be what lets the copy run), so
 * without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev, scratch;
    SGT_CHECK(cuMemAlloc(&dev, SGT_BYTES));
    SGT_CHECK(cuMemAlloc(&scratch, SGT_BYTES));
    SGT_CHECK(cuMemsetD32(dev, SGT_NEW, SGT_WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, SGT_BYTES));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuMemsetD32Async(scratch, 0, SGT_WORDS, b));
    SGT_CHECK(cuStreamSynchronize(b));  /* the mistake: the wrong stream */
    sgt_release_when_host_waits(hold);

    /* The race: B's completion says nothing about A. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(a));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuMemFree(scratch));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    return sgt_race_verdict(early, late, "after cuStreamSynchronize(A)");
}
