/* SPDX-License-Identifier: Apache-2.0 */
/* m_gate_fill_race: an async host-to-device copy waits behind a
 * cuStreamWaitValue32 gate (the hold).  Here the gate is opened by someone
 * else (the release when the host waits) while the host still writes the
 * source: the writes are not ordered before the copy.  syncguard waits
 * (boundedly) for the gate, sees the copy run, reports, and the device
 * receives ORIG.  Twin: m_gate_fill_ok, where the host fills the buffer
 * BEFORE it opens the gate itself (#11: this hung): the writes come before
 * the copy starts, and the gate cannot open while they wait; syncguard
 * gives up the bounded wait and lets them through without a report
 * (counted in waits_abandoned).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .*m_gate_fill_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_gate_fill_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define ORIG 0x0c0ffee0u /* the source when the copy is enqueued */
#define FILL 0xfeedf00du /* what the host writes */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(SGT_WORDS, 0);
    uint32_t *staging = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        staging[i] = ORIG;
    sgt_hold *gate = sgt_hold_stream(a); /* cuStreamWaitValue32(a, flag, 1, GEQ) */
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, a));
#ifndef SG_TWIN
    sgt_release_when_host_waits(gate);
#endif
    for (unsigned i = 0; i < SGT_WORDS; i++)
        ((volatile uint32_t *)staging)[i] = FILL;
#ifdef SG_TWIN /* m_gate_fill_ok */
    sgt_release(gate); /* the host opens the gate after filling */
    const uint32_t want = FILL;
#else
    const uint32_t want = ORIG;
#endif
    SGT_CHECK(cuStreamSynchronize(a));
    uint32_t *back = malloc(SGT_BYTES);
    SGT_EXPECT(back != NULL);
    SGT_CHECK(cuMemcpyDtoH(back, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(back, SGT_WORDS, want), "the device after the copy");
}
