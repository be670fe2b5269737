/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pinned_padding_oom: isolate_pinned asks the driver for more than
 * the program did (a page-aligned block with a spare page). Where pinned
 * memory is short, that extra must never be what fails the program: with
 * the emulator pinning at most the 8 KiB the program asks for at once, the
 * allocation still succeeds (syncguard falls back to the program's size),
 * its copy is guarded as any other (the early read is reported, the data
 * are right), and an allocation over the limit fails as it would without
 * syncguard.
 *
 * SG-EMU-ONLY (the limit is the emulator's SGEMU_PINNED_LIMIT)
 * SG-EXPECT: early-host-read
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define WORDS 2048u /* 8 KiB */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    setenv("SGEMU_PINNED_LIMIT", "8192", 1);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, WORDS * sizeof(uint32_t)));
    SGT_CHECK(cuMemsetD32(dev, SGT_NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, WORDS * sizeof(uint32_t)));
    void *more;
    CUresult over = cuMemAllocHost(&more, WORDS * sizeof(uint32_t) + 1);
    printf("allocation over the limit: %d (want %d)\n", (int)over, (int)CUDA_ERROR_OUT_OF_MEMORY);
    SGT_EXPECT(over == CUDA_ERROR_OUT_OF_MEMORY);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, WORDS * sizeof(uint32_t), s));
    sgt_release_when_host_waits(hold);
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);

    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
}
