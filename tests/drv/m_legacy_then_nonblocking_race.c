/* m_legacy_then_nonblocking_race: legacy default stream.  As
 * m_legacy_then_blocking_ok, but B is NON-BLOCKING: its memset does not
 * wait for the legacy stream, and synchronizing B says nothing about the
 * copy.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_legacy_then_nonblocking_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(NULL);             /* the legacy stream */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    SGT_CHECK(cuMemsetD8Async(scratch, 1, 64, b));         /* does not wait */
    SGT_CHECK(cuStreamSynchronize(b));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B) following an op on B");
}
