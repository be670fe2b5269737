/* SPDX-License-Identifier: Apache-2.0 */
/* Batched copies, in the CUDA 12.8 ABI (failIdx) and the 13.0 one, found
 * with cuGetProcAddress as the runtimes find them: the batch runs in
 * stream order as a whole; the source access order decides when a source
 * is read; invalid batches enqueue nothing and name the culprit. */
#define _GNU_SOURCE 1
#include "t-util.h"

#include <dlfcn.h>
#include <stdint.h>

#define N 4096

typedef CUresult (*batch_v12080_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *,
                                    size_t, size_t *, CUstream);
typedef CUresult (*batch_v13000_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *,
                                    size_t, CUstream);
typedef CUresult (*batch3d_v13000_fn)(size_t, CUDA_MEMCPY3D_BATCH_OP *, unsigned long long, CUstream);

static void *lookup(const char *name, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress(name, &fn, version, 0, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    return fn;
}

#define P(x) ((CUdeviceptr)(uintptr_t)(x))

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    batch_v12080_fn batch128 = lookup("cuMemcpyBatchAsync", 12080);
    batch_v13000_fn batch13 = lookup("cuMemcpyBatchAsync", 13000);
    batch3d_v13000_fn batch3d = lookup("cuMemcpy3DBatchAsync", 13000);
    SGT_EXPECT((void *)batch128 == dlsym(lib, "cuMemcpyBatchAsync"));
    SGT_EXPECT((void *)batch13 == dlsym(lib, "cuMemcpyBatchAsync_v2"));

    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d1 = device_with_pattern(N, 1), d2 = device_with_pattern(N, 2), d3;
    SGT_CHECK(cuMemAlloc(&d3, N));
    unsigned char *h1 = pinned_zeroed(N), *h2 = pinned_zeroed(N);
    unsigned char src[N];
    fill_pattern(src, N, 7);

    /* Two D2H copies and a pageable H2D read during the call, behind a
     * hold: nothing lands before the release; the source may be reused
     * as soon as the call returns. */
    CUdeviceptr dsts[3] = { P(h1), P(h2), d3 }, srcs[3] = { d1, d2, P(src) };
    size_t sizes[3] = { N, N, N }, idx[2] = { 0, 2 }, fail = 0;
    CUmemcpyAttributes attrs[2] = { { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM },
                                    { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL } };
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(batch128(dsts, srcs, sizes, 3, attrs, idx, 2, &fail, s));
    SGT_EXPECT(fail == SIZE_MAX);
    memset(src, 0, N);
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY && all_zero(h1, N) && all_zero(h2, N));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned char back[N];
    SGT_CHECK(cuMemcpyDtoH(back, d3, N));
    SGT_EXPECT(has_pattern(h1, N, 1) && has_pattern(h2, N, 2) && has_pattern(back, N, 7));

    /* The 13.0 ABI; a D2H into pageable memory makes the call wait. */
    memset(h1, 0, N);
    memset(back, 0, N);
    CUdeviceptr dsts2[2] = { P(h1), P(back) }, srcs2[2] = { d2, d1 };
    hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(batch13(dsts2, srcs2, sizes, 2, attrs, idx, 1, s));
    SGT_EXPECT(has_pattern(back, N, 1) && has_pattern(h1, N, 2));

    /* Invalid: the legacy stream; bad attribute indices; a bad pointer
     * names its copy, and nothing of the batch runs. */
    SGT_EXPECT(batch13(dsts, srcs, sizes, 2, attrs, idx, 1, NULL) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(batch13(dsts, srcs, sizes, 2, attrs, idx, 1, CU_STREAM_LEGACY) == CUDA_ERROR_INVALID_VALUE);
    size_t bad_idx[2] = { 1, 2 };
    SGT_EXPECT(batch128(dsts, srcs, sizes, 3, attrs, bad_idx, 2, &fail, s) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(fail == SIZE_MAX);
    memset(h1, 0, N);
    CUdeviceptr dsts3[2] = { P(h1), d3 }, srcs3[2] = { d1, d3 + N - 8 };
    SGT_EXPECT(batch128(dsts3, srcs3, sizes, 2, attrs, idx, 1, &fail, s) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(fail == 1);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(all_zero(h1, N));

    /* 3D: 4 rows of 100 bytes from packed device memory into rows 256
     * bytes apart; the gaps stay as they were. */
    memset(h1, 0, N);
    CUDA_MEMCPY3D_BATCH_OP op = { 0 };
    op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.src.op.ptr.ptr = d1;
    op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.dst.op.ptr.ptr = P(h1);
    op.dst.op.ptr.rowLength = 256;
    op.extent = (CUextent3D){ 100, 4, 1 };
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    SGT_CHECK(batch3d(1, &op, 0, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(h1, 100, 1) && all_zero(h1 + 100, 156) && h1[256] == pattern(100, 1) &&
               h1[3 * 256 + 99] == pattern(399, 1) && all_zero(h1 + 3 * 256 + 100, N - 3 * 256 - 100));
    /* Array operands (array.c): the extent and the pointer operand's row
     * length are in elements of the array (here 4-byte ones). */
    CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = 64, .Height = 4, .Depth = 0,
                                   .Format = CU_AD_FORMAT_UNSIGNED_INT32, .NumChannels = 1 };
    CUarray arr;
    SGT_CHECK(cuArray3DCreate(&arr, &ad));
    CUDA_MEMCPY3D_BATCH_OP in = { 0 }, out = { 0 };
    in.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    in.src.op.ptr.ptr = d1;
    in.dst.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
    in.dst.op.array.array = arr;
    in.extent = (CUextent3D){ 64, 4, 1 };
    in.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    out = in;
    out.src = in.dst;
    out.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    out.dst.op.ptr.ptr = P(h1);
    memset(h1, 0, N);
    SGT_CHECK(batch3d(1, &in, 0, s));
    SGT_CHECK(batch3d(1, &out, 0, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(h1, 64 * 4 * 4, 1) && all_zero(h1 + 64 * 4 * 4, N - 64 * 4 * 4));
    out.extent.width = 65;                              /* past the array's width */
    SGT_EXPECT(batch3d(1, &out, 0, s) == CUDA_ERROR_INVALID_VALUE);
    out.src.op.array.array = NULL;
    SGT_EXPECT(batch3d(1, &out, 0, s) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuArrayDestroy(arr));
    return pass("t-batch", "batched copies in both ABIs run in stream order as a whole");
}
