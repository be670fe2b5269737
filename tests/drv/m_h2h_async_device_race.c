/* SPDX-License-Identifier: Apache-2.0 */
/* m_h2h_async_device_race: only asynchronous work is guarded.  cuMemcpyAsync from
 * the device into a pinned buffer, held: reading it is a race.  Its twin
 * copies from another pinned buffer instead: host to host, "fully
 * synchronous with respect to the host" (API synchronization behavior),
 * so the buffers are free on return.  Twin: m_h2h_async_pinned_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_h2h_async_device_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_h2h_async_pinned_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN
    uint32_t *src = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        src[i] = SGT_NEW;
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)host, (CUdeviceptr)(uintptr_t)src, SGT_BYTES, s));
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        src[i] = SGT_OLD, host[i] = SGT_NEW; /* both are the program's again */
    return sgt_verdict(wrong, "after a host-to-host cuMemcpyAsync between pinned buffers");
#else
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a device-to-host cuMemcpyAsync");
#endif
}
