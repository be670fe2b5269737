/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch_src_stream_order_race: only asynchronous work is guarded.  A batch copy
 * (cuMemcpyBatchAsync, 13.0 ABI) from a pinned buffer to the device with
 * CU_MEMCPY_SRC_ACCESS_ORDER_STREAM, held: the source is read in stream
 * order, so writing it before synchronizing is a race.  Its twin asks for
 * CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL: the source is read during
 * the call ("the source ... can be reused or freed once the API call
 * returns"), so writing it afterwards is no race.  Twin: m_batch_src_during_call_ok.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .*m_batch_src_stream_order_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_batch_src_during_call_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

typedef CUresult (*batch_v13000_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *,
                                    size_t *, size_t, CUstream);

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_NEW;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    batch_v13000_fn batch = (batch_v13000_fn)sgt_proc("cuMemcpyBatchAsync", 13000);
    CUdeviceptr dst = dev, src = (CUdeviceptr)(uintptr_t)host;
    size_t size = SGT_BYTES, attr_idx = 0;
#ifdef SG_TWIN
    CUmemcpyAttributes attr = { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL };
#else
    CUmemcpyAttributes attr = { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM };
#endif
    attr.srcLocHint.type = CU_MEM_LOCATION_TYPE_HOST;
    attr.dstLocHint.type = CU_MEM_LOCATION_TYPE_DEVICE;
    sgt_hold *hold = sgt_hold_stream(s);
#ifdef SG_TWIN
    /* The driver reads the source "during the call" by waiting for the
     * stream to reach the copy (GPU run 20): the release must not wait
     * for the call to return. */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(batch(&dst, &src, &size, 1, &attr, &attr_idx, 1, s));
#else
    SGT_CHECK(batch(&dst, &src, &size, 1, &attr, &attr_idx, 1, s));
    sgt_release_when_host_waits(hold);
#endif
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;              /* the program reuses its source */
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyDtoH(host, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "the device got the source as it was at the call");
}
