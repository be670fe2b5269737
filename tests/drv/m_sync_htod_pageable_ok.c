/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_htod_pageable_ok: synchronous copies.  "For transfers from
 * pageable host memory to device memory, a stream sync is performed before
 * the copy is initiated" (API synchronization behavior): a synchronous
 * cuMemcpyHtoD from a pageable buffer on the legacy stream returns after
 * the legacy stream's earlier work, the async copy included.  Twin:
 * m_sync_copy_nonblocking_race.
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
    uint32_t small[16] = { 0 };
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, sizeof small));
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyHtoD(scratch, small, sizeof small));  /* pageable source */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a synchronous cuMemcpyHtoD from pageable memory");
}
