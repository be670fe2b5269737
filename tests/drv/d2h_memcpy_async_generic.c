/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_memcpy_async_generic: the generic cuMemcpyAsync (unified addressing:
 * the driver tells the direction from the pointers) with a pinned host
 * destination is a device-to-host copy like cuMemcpyDtoHAsync.  The host
 * reads the destination before synchronizing: a race.
 * Twin: d2h_memcpy_async_generic_sync.
 *
 * SG-EXPECT: early-host-read
 */
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
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);

    /* The race: nothing tells the host that the copy is done. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
}
