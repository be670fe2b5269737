/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_fill_h2d_race: a host function fills a pinned staging buffer
 * that an async host-to-device copy reads.  Here the host function runs on
 * ANOTHER non-blocking stream, not ordered with the copy: its writes race
 * with the copy.  syncguard reports them and lets them through once the
 * copy has read the buffer, so the device receives ORIG.  Twin:
 * m_hostfn_fill_h2d_ok, where the host function is enqueued before the copy
 * on the copy's stream: stream order places its writes before the copy
 * starts (no race), and the copy cannot start until the function returns,
 * so syncguard must neither report nor wait (it hung there); and
 * m_hostfn_fill_h2d_wait_ok, where the copy runs on another stream that
 * waits (cuStreamWaitEvent) for an event recorded after the host function.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .*m_hostfn_fill_h2d_race
 */
/* This program is also built, with SG_TWIN defined, as its twins
 * m_hostfn_fill_h2d_ok.c and (SG_TWIN 2) m_hostfn_fill_h2d_wait_ok.c (the
 * lines under #ifdef SG_TWIN are theirs). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define ORIG 0x0c0ffee0u /* the staging buffer before the host function */
#define FILL 0xfeedf00du /* what the host function writes */

static uint32_t *staging;

static void CUDA_CB fill(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < SGT_WORDS; i++)
        ((volatile uint32_t *)staging)[i] = FILL;
    sgt_set_done(NULL);
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(SGT_WORDS, 0);
    staging = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        staging[i] = ORIG;
    sgt_hold *hold = sgt_hold_stream(a);
#if SG_TWIN == 2 /* m_hostfn_fill_h2d_wait_ok: the copy on c, after an event of a */
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent filled = sgt_event();
    SGT_CHECK(cuLaunchHostFunc(a, fill, NULL));
    SGT_CHECK(cuEventRecord(filled, a));
    SGT_CHECK(cuStreamWaitEvent(c, filled, 0));
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, c));
    sgt_release(hold);
    sgt_wait_done();
    SGT_CHECK(cuStreamSynchronize(c));
    const uint32_t want = FILL;
#elif defined SG_TWIN /* m_hostfn_fill_h2d_ok */
    SGT_CHECK(cuLaunchHostFunc(a, fill, NULL));
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, a));
    sgt_release(hold);
    const uint32_t want = FILL;
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuLaunchHostFunc(b, fill, NULL));
    const uint32_t want = ORIG;
#endif
    sgt_wait_done();
    SGT_CHECK(cuStreamSynchronize(a));
    uint32_t *back = malloc(SGT_BYTES);
    SGT_EXPECT(back != NULL);
    SGT_CHECK(cuMemcpyDtoH(back, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(back, SGT_WORDS, want), "the device after the copy");
}
