/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_copy_nonblocking_race: synchronous copies.  The async copy runs on
 * a NON-BLOCKING stream: a synchronous cuMemcpyDtoH (legacy stream) does
 * not wait for it.  Twin: m_sync_copy_legacy_ok.
 *
 * SG-EMU-ONLY: on the H200 (driver 580) the synchronous cuMemcpyDtoH blocked
 *   until the held non-blocking stream was released (more than the
 *   documentation promises), so the hold cannot be kept there: the program
 *   hung (tests/gpu/RESULTS.md, run 5).
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_copy_nonblocking_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    uint32_t small[16];
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuMemcpyDtoH(small, dev, sizeof small));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a synchronous cuMemcpyDtoH on the legacy stream");
}
