/* SPDX-License-Identifier: Apache-2.0 */
/* m_ctx_destroy_ok: context destroy.  cuCtxDestroy waits for all the
 * context's work before tearing it down.  The copy lands in program memory
 * registered (cuMemHostRegister) in that context, which outlives it (the
 * registration goes with the context): reading it after the destroy is no
 * race.  Twin: m_ctx_destroy_other_race.
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
    CUcontext c;
    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    CUdeviceptr dev;
    uint32_t *host;
    sgt_registered_buffers(&dev, &host);    /* program memory, registered in c */
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxDestroy(c));         /* waits for the copy */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxDestroy of the copy's context");
}
