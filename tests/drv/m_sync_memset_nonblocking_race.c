/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_nonblocking_race: synchronous work on the legacy default
 * stream.  A copy runs on a NON-BLOCKING stream A; a synchronous
 * cuMemsetD32 of device memory (it returns at once: "asynchronous with
 * respect to the host") goes to the legacy stream, which does not wait for
 * A, and a memset on a blocking stream B waits for it: synchronizing B says
 * nothing about the copy.
 *
 * Twins, with A blocking (the legacy operation waits for the copy, B's
 * memset for it, so synchronizing B observes the copy; syncguard must know
 * the synchronous call is work on the legacy stream):
 * m_sync_memset_legacy_ok (cuMemsetD32), m_sync_memset2d_legacy_ok
 * (cuMemsetD2D16), m_sync_dtod_legacy_ok (cuMemcpyDtoD),
 * m_sync_copy2d_d2d_legacy_ok (cuMemcpy2D between device buffers),
 * m_sync_peer_legacy_ok (cuMemcpyPeer). m_sync_peer_context_race is this
 * race with cuMemcpyPeer in place of the memset.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_memset_nonblocking_race
 */
/* This program is also built, with SG_TWIN defined, as the twins above:
 * each defines SG_A_FLAGS (A's flags) and SG_LEGACY_OP (the synchronous
 * call, on scratch and scratch2, device memory of the context ctx); a race
 * may define SG_LEGACY_OP alone. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#ifndef SG_A_FLAGS
#define SG_A_FLAGS CU_STREAM_NON_BLOCKING
#endif
#ifndef SG_LEGACY_OP
#define SG_LEGACY_OP cuMemsetD32(scratch, 1, 16)
#endif

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    (void)ctx;
    CUdeviceptr scratch = sgt_device_words(64, 0), scratch2 = sgt_device_words(64, 0);
    CUdeviceptr on_b = sgt_device_words(64, 0);
    (void)scratch2;
    CUstream a = sgt_stream(SG_A_FLAGS);
    CUstream b = sgt_stream(CU_STREAM_DEFAULT);

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* the copy is ordered before B's memset: let it run once the host waits */
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(SG_LEGACY_OP);                             /* on the legacy stream */
    SGT_CHECK(cuMemsetD8Async(on_b, 1, 64, b));          /* waits for the legacy stream */
    SGT_CHECK(cuStreamSynchronize(b));
#ifndef SG_TWIN /* B's work did not wait for the copy */
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B)");
}
