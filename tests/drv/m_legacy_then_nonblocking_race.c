/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_then_nonblocking_race: legacy default stream.  As
 * m_legacy_then_blocking_ok, but B is NON-BLOCKING: its memset does not
 * wait for the legacy stream, and synchronizing B says nothing about the
 * copy.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_legacy_then_nonblocking_race
 */
/* This program is also built, with SG_TWIN defined, as its twins
 * m_legacy_then_blocking_ok.c, m_legacy_then_blocking_memset16_ok.c and
 * m_legacy_then_blocking_writevalue_ok.c (the lines under #ifdef SG_TWIN are
 * theirs); each twin defines SG_OP_ON_B, its operation on B (on scratch). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
#ifdef SG_TWIN /* m_legacy_then_blocking_ok and its variants */
    CUstream b = sgt_stream(CU_STREAM_DEFAULT);
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    sgt_hold *hold = sgt_hold_stream(NULL);             /* the legacy stream */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
#ifdef SG_TWIN /* m_legacy_then_blocking_ok and its variants */
    SGT_CHECK(SG_OP_ON_B);                              /* waits for the legacy copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
#else
    SGT_CHECK(cuMemsetD8Async(scratch, 1, 64, b));      /* does not wait */
    SGT_CHECK(cuStreamSynchronize(b));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B) following an op on B");
}
