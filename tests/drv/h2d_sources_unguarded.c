/* SPDX-License-Identifier: Apache-2.0 */
/* h2d_sources_unguarded: with guard_sources=0 the pinned source of a
 * host-to-device copy is not guarded: the host's early write goes through
 * unseen (and, the copy being held behind it, the device receives the
 * rewritten words: the race syncguard was told not to watch), while a
 * device-to-host destination in the same program is still guarded and its
 * early read reported. The counters say only the destination's four pages
 * were guarded.
 *
 * SG-OPTIONS: guard_sources=0:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-NOGREP: SUMMARY: syncguard: early-host-write
 * SG-GREP: ^==[0-9]*==syncguard: stats: mprotect_calls=2, pages_guarded=4,
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define LATER 0xdeadbeefu /* what the host writes into the source too early */

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host, *src;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr sink;
    SGT_CHECK(cuMemAlloc(&sink, SGT_BYTES));
    SGT_CHECK(cuMemAllocHost((void **)&src, SGT_BYTES));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        src[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(sink, src, SGT_BYTES, s));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        ((volatile uint32_t *)src)[i] = LATER; /* not guarded: no fault */
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, sink, SGT_BYTES));
    unsigned rewritten = SGT_WORDS - SGT_COUNT_WRONG(back, SGT_WORDS, LATER);
    printf("device copy of the source: %u of %u words the early write's\n", rewritten, SGT_WORDS);
    SGT_EXPECT(rewritten == SGT_WORDS);

    hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuMemFreeHost(src));
    SGT_CHECK(cuMemFree(sink));
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
}
