/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch3d_race: batch copies.  cuMemcpy3DBatchAsync (13.0 ABI, from
 * cuGetProcAddress) with pointer operands: rows of 2 KiB from packed device
 * memory into a pinned buffer with a pitch of 4 KiB.  Reading inside a row
 * before synchronizing is a race.  Twin: m_batch_v13000_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_batch3d_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

typedef CUresult (*batch3d_fn)(size_t, CUDA_MEMCPY3D_BATCH_OP *, unsigned long long, CUstream);

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    batch3d_fn batch3d = (batch3d_fn)sgt_proc("cuMemcpy3DBatchAsync", 13000);
    CUDA_MEMCPY3D_BATCH_OP op = { 0 };
    op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.src.op.ptr.ptr = dev;
    op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.dst.op.ptr.ptr = (CUdeviceptr)(uintptr_t)host;
    op.dst.op.ptr.rowLength = 4096;
    op.extent = (CUextent3D){ 2048, 4, 1 };
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(batch3d(1, &op, 0, a));
    sgt_release_when_host_waits(hold);
    uint32_t early = ((volatile uint32_t *)host)[1024 + 5];      /* row 1 */
    SGT_CHECK(cuStreamSynchronize(a));
    unsigned wrong = (early != SGT_NEW) + sgt_rows_wrong(host, 2048, 4096, 4);
    return sgt_verdict(wrong, "early read inside a row, then the whole layout");
}
