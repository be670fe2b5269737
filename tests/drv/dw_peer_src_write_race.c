/* SPDX-License-Identifier: Apache-2.0 */
/* dw_peer_src_write_race: cuMemcpyPeerAsync whose source is pinned host
 * memory (its host address, which unified addressing makes a device
 * address too) reads it in stream order; the host overwrites the source
 * before observing the copy.  syncguard must report the write and let it
 * through only after the copy, so the device gets the old words.  Twin:
 * dw_peer_src_sync_ok.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: Copy enqueued on .* by cuMemcpyPeerAsync
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_NEW; /* what the device must get */

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyPeerAsync(dev, ctx, (CUdeviceptr)(uintptr_t)host, ctx, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* dw_peer_src_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    for (unsigned i = 0; i < SGT_WORDS; i++) /* the race, unless synchronized */
        ((volatile uint32_t *)host)[i] = SGT_OLD;
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyDtoH(host, dev, SGT_BYTES));
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the device's words after the copy");
}
