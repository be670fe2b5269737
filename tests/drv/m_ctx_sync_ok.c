/* SPDX-License-Identifier: Apache-2.0 */
/* m_ctx_sync_ok: cuCtxSynchronize.  It blocks until all work of the current
 * context is complete, the copy included.  Twin: m_ctx_sync_other_ctx_race.
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
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxSynchronize());
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxSynchronize");
}
