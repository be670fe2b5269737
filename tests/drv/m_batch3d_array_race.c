/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch3d_array_race: graphs completely / 3D batches: a 3D batch copy
 * from a CUDA array (32-bit elements, 1024 x 4) into pinned memory.  With
 * an array operand "the extent is in elements", so the copy fills all 16
 * KiB of the host rows, not 4 KiB: reading its last row before
 * synchronizing is a race.  Twin: m_batch3d_array_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_batch3d_array_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_batch3d_array_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

typedef CUresult (*batch3d_fn)(size_t, CUDA_MEMCPY3D_BATCH_OP *, unsigned long long, CUstream);

#define WIDTH 1024u /* elements of 4 bytes: one row is 4 KiB */
#define ROWS 4u

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    batch3d_fn batch3d = (batch3d_fn)sgt_proc("cuMemcpy3DBatchAsync", 13000);
    CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = WIDTH, .Height = ROWS, .Depth = 0,
                                   .Format = CU_AD_FORMAT_UNSIGNED_INT32, .NumChannels = 1 };
    CUarray arr;
    SGT_CHECK(cuArray3DCreate(&arr, &ad));
    CUDA_MEMCPY3D_BATCH_OP in = { 0 };
    in.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    in.src.op.ptr.ptr = dev;
    in.dst.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
    in.dst.op.array.array = arr;
    in.extent = (CUextent3D){ WIDTH, ROWS, 1 };
    in.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    SGT_CHECK(batch3d(1, &in, 0, s));           /* the array holds SGT_NEW */
    SGT_CHECK(cuStreamSynchronize(s));

    CUDA_MEMCPY3D_BATCH_OP out = in;
    out.src = in.dst;
    out.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    out.dst.op.ptr.ptr = (CUdeviceptr)(uintptr_t)host;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(batch3d(1, &out, 0, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    /* the last row: bytes 12 KiB to 16 KiB of the destination */
    unsigned wrong = SGT_COUNT_WRONG(host + (ROWS - 1) * WIDTH, WIDTH, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(wrong + SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "the last row of the array's copy");
}
