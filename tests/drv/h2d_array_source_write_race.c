/* SPDX-License-Identifier: Apache-2.0 */
/* h2d_array_source_write_race: cuMemcpyHtoAAsync from pinned memory into a
 * CUDA array runs in stream order, after the call returns; the host
 * overwrites the source before it has observed the copy.  syncguard must
 * report the write and let it through only after the copy, so the array
 * receives the original words.  Twin: h2d_array_source_read_ok, where the
 * host only reads the source meanwhile.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: Copy enqueued on .* by cuMemcpyHtoAAsync
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * h2d_array_source_read_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define ORIG 0x0c0ffee0u  /* the source when the copy is enqueued */
#define LATER 0xdeadbeefu /* what the host writes too early */

static uint32_t back[SGT_WORDS]; /* pageable */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    uint32_t *src = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        src[i] = ORIG;
    CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = SGT_WORDS, .Format = CU_AD_FORMAT_UNSIGNED_INT32,
                                   .NumChannels = 1 };
    CUarray arr;
    SGT_CHECK(cuArray3DCreate(&arr, &ad));
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoAAsync(arr, 0, src, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = 0;
#ifdef SG_TWIN /* h2d_array_source_read_ok: reading a source the device reads too */
    wrong += SGT_COUNT_WRONG(src, SGT_WORDS, ORIG);
#else
    for (unsigned i = 0; i < SGT_WORDS; i++) /* the race: the copy may not have read it yet */
        ((volatile uint32_t *)src)[i] = LATER;
#endif
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyAtoH(back, arr, 0, SGT_BYTES));
    wrong += SGT_COUNT_WRONG(back, SGT_WORDS, ORIG); /* the array got the original words */
    SGT_CHECK(cuArrayDestroy(arr));
    SGT_CHECK(cuMemFreeHost(src));
    return sgt_verdict(wrong, "the array's words after the copy from pinned memory");
}
