/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_copy_legacy_ok: synchronous copies.  A synchronous cuMemcpyDtoH is
 * an operation on the legacy stream that returns once complete: the async
 * copy enqueued on the legacy stream before it is complete too.  Twin:
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
    uint32_t small[16];
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoH(small, dev, sizeof small));  /* pageable: synchronous */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a synchronous cuMemcpyDtoH on the legacy stream");
}
