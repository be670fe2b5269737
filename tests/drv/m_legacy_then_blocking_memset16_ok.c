/* m_legacy_then_blocking_memset16_ok: legacy default stream.  As
 * m_legacy_then_blocking_ok, with the operation on the blocking stream B
 * being a cuMemsetD16Async: any work on a blocking stream waits for earlier
 * legacy-stream work, whatever call enqueued it.  Synchronizing B observes
 * the copy.  Twin: m_legacy_then_nonblocking_race.
 *
 * SG-EXPECT: silent
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
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_DEFAULT));
    sgt_hold *hold = sgt_hold_stream(NULL);             /* the legacy stream */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    SGT_CHECK(cuMemsetD16Async(scratch, 1, 32, b));        /* waits for the legacy copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B) following an op on B");
}
