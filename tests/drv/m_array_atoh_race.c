/* SPDX-License-Identifier: Apache-2.0 */
/* m_array_atoh_race: copies from a CUDA array.  cuMemcpyAtoHAsync copies a
 * 1D array into pinned memory on a NON-BLOCKING stream, guarded like a
 * device-to-host copy; a synchronous cuMemcpyAtoH of the same array into
 * pageable memory on the legacy stream returns once complete, but the
 * legacy stream does not wait for a non-blocking one: reading the pinned
 * words then is a race.  Twin: m_array_atoh_ok, where the asynchronous
 * copy is on the legacy stream and the synchronous one observes it.
 *
 * On the real driver (580, H200, tests/gpu/RESULTS.md run 39) the
 * synchronous cuMemcpyAtoH waits for the held stream's pending copy, which
 * the hold keeps from running until it returns: the program deadlocks
 * natively, so it runs on the emulator only. SG-EMU-ONLY
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Copy enqueued on .* by cuMemcpyAtoHAsync
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_array_atoh_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

static uint32_t fill[SGT_WORDS], back[SGT_WORDS]; /* pageable */

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = SGT_WORDS, .Format = CU_AD_FORMAT_UNSIGNED_INT32,
                                   .NumChannels = 1 };
    CUarray arr;
    SGT_CHECK(cuArray3DCreate(&arr, &ad));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        fill[i] = SGT_NEW;
    SGT_CHECK(cuMemcpyHtoA(arr, 0, fill, SGT_BYTES)); /* synchronous: the array holds SGT_NEW */
#ifdef SG_TWIN /* m_array_atoh_ok */
    CUstream s = NULL;
#else
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyAtoHAsync(host, arr, 0, SGT_BYTES, s));
#ifdef SG_TWIN /* the synchronous copy waits for the asynchronous one */
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(cuMemcpyAtoH(back, arr, 0, SGT_BYTES)); /* the legacy stream; returns once complete */
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless the twin */
    SGT_CHECK(cuStreamSynchronize(s));
    wrong += SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuArrayDestroy(arr));
    return sgt_verdict(wrong, "the array's words in pinned memory after cuMemcpyAtoH");
}
