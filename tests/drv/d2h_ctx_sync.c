/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_ctx_sync: cuCtxSynchronize after a cuMemcpyDtoHAsync on a created
 * stream: it waits for all work of the context, so its return observes the
 * copy's completion and the read afterwards is no race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_memcpy_async_generic_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)host, dev, SGT_BYTES, s));
#else
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */
#else
    SGT_CHECK(cuCtxSynchronize());      /* waits for the copy: releases the hold */
#endif

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuStreamDestroy(s));
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    return sgt_verdict(wrong, "after cuStreamSynchronize");
#else
    return sgt_verdict(wrong, "after cuCtxSynchronize");
#endif
}
