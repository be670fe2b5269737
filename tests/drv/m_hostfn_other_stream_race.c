/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_other_stream_race: host functions.  The host function runs on
 * ANOTHER non-blocking stream: it runs at once and its flag says nothing
 * about the copy.  Twin: m_hostfn_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_hostfn_other_stream_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_hostfn_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* m_hostfn_ok */
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_hostfn_ok */
    SGT_CHECK(cuLaunchHostFunc(a, sgt_set_done, NULL));
    sgt_release(hold);
#else
    SGT_CHECK(cuLaunchHostFunc(b, sgt_set_done, NULL));
    sgt_release_when_host_waits(hold);
#endif
    sgt_wait_done();                    /* spins until the host function ran */
#ifdef SG_TWIN /* m_hostfn_ok */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the host function on the copy's stream ran");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a host function on another stream ran");
#endif
}
