/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy3d_peer_race: 3D copies between contexts.  cuMemcpy3DPeerAsync
 * copies device rows into pinned memory (both sides in the current
 * context) on a NON-BLOCKING stream, guarded like cuMemcpy3DAsync; a
 * synchronous cuMemcpy3DPeer of the same rows into pageable memory on the
 * legacy stream returns once complete, but the legacy stream does not wait
 * for a non-blocking one: reading the pinned rows then is a race.  Twin:
 * m_copy3d_peer_ok, where the asynchronous copy is on the legacy stream.
 *
 * On the real driver (580, H200, tests/gpu/RESULTS.md run 39) the
 * synchronous cuMemcpy3DPeer waits for the held stream's pending copy, which
 * the hold keeps from running until it returns: the program deadlocks
 * natively, so it runs on the emulator only. SG-EMU-ONLY
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Copy enqueued on .* by cuMemcpy3DPeerAsync
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_copy3d_peer_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define W 4096u    /* bytes per row */
#define ROWS 4u    /* ROWS * W == SGT_BYTES */

static uint32_t back[SGT_WORDS]; /* pageable */

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUDA_MEMCPY3D_PEER p = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev, .srcContext = ctx, .srcPitch = W,
        .srcHeight = ROWS, .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstContext = ctx,
        .dstPitch = W, .dstHeight = ROWS, .WidthInBytes = W, .Height = ROWS, .Depth = 1,
    };
    CUDA_MEMCPY3D_PEER to_back = p;
    to_back.dstHost = back;
#ifdef SG_TWIN /* m_copy3d_peer_ok */
    CUstream s = NULL;
#else
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpy3DPeerAsync(&p, s));
#ifdef SG_TWIN /* the synchronous copy waits for the asynchronous one */
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(cuMemcpy3DPeer(&to_back)); /* the legacy stream; returns once complete */
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless the twin */
    SGT_CHECK(cuStreamSynchronize(s));
    wrong += SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW);
    return sgt_verdict(wrong, "the pinned rows after cuMemcpy3DPeer");
}
