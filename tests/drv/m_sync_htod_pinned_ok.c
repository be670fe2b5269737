/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_htod_pinned_ok: synchronous copies.  "For transfers from pinned
 * host memory to device memory, the function is synchronous with respect to
 * the host":  a synchronous cuMemcpyHtoD from pinned memory on the legacy
 * stream returns once complete, after the async copy enqueued there before
 * it.  Twin: m_sync_copy_nonblocking_race.
 *
 * SG-EXPECT: silent
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
    uint32_t *small;
    SGT_CHECK(cuMemAllocHost((void **)&small, 64));
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyHtoD(scratch, small, 64));        /* pinned source */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a synchronous cuMemcpyHtoD from pinned memory");
}
