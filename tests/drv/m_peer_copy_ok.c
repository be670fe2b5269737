/* SPDX-License-Identifier: Apache-2.0 */
/* m_peer_copy_ok: peer copies.  cuMemcpyPeerAsync between two contexts
 * (both on device 0) moves device memory only: nothing of the host is
 * guarded, and the host uses its pinned memory freely while the copy is in
 * flight.  (No racy twin: no host memory is involved.)
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=2
 * SG-NOGREP: guarded on stream
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUcontext ca, cb;
    SGT_CHECK(cuCtxCreate(&ca, NULL, 0, 0));
    CUdeviceptr da;
    uint32_t *host;
    sgt_buffers(&da, &host);
    SGT_CHECK(cuCtxCreate(&cb, NULL, 0, 0));
    CUdeviceptr db;
    SGT_CHECK(cuMemAlloc(&db, SGT_BYTES));
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(b);
    SGT_CHECK(cuMemcpyPeerAsync(db, cb, da, ca, SGT_BYTES, b));
    for (unsigned i = 0; i < SGT_WORDS; i++)        /* the host's own pinned memory */
        host[i] = SGT_NEW;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, db, SGT_BYTES));
    wrong += SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW);
    return sgt_verdict(wrong, "host buffer during the peer copy, peer destination after it");
}
