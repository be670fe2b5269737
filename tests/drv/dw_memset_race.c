/* SPDX-License-Identifier: Apache-2.0 */
/* dw_memset_race: cuMemsetD32Async on pinned host memory (its host
 * address: the driver takes page-locked memory as a memset's target) is
 * asynchronous to the host, like a device-to-host copy; the host reads the
 * memory before it has observed the memset.  The memset waits behind a
 * hold, so without syncguard the read sees the old words.  Twin:
 * dw_memset_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: host read of pinned memory that an asynchronous memset still in flight writes
 * SG-GREP: Memset enqueued on .* by cuMemsetD32Async
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
    SGT_CHECK(cuMemsetD32Async((CUdeviceptr)(uintptr_t)host, SGT_NEW, SGT_WORDS, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* dw_memset_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned first = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synchronized */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(first, late, "cuStreamSynchronize");
}
