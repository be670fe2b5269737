/* SPDX-License-Identifier: Apache-2.0 */
/* Memory: the unified address space (pointer attributes, host
 * registration), memsets (synchronous 2D ones too), generic, 2D, 3D and
 * 3D peer copies, 1D copies between CUDA arrays and host memory. */
#include "t-util.h"

#include <stdlib.h>
#include <sys/mman.h>

static void pointer_attributes(void)
{
    CUdeviceptr d;
    void *h;
    unsigned int type = 0, flags = 99;
    CUcontext ctx, cur;
    void *hp;
    CUdeviceptr dp;
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_CHECK(cuMemAlloc(&d, 100));
    SGT_CHECK(cuMemHostAlloc(&h, 100, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    SGT_CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 10));
    SGT_EXPECT(type == CU_MEMORYTYPE_DEVICE);
    SGT_CHECK(cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, d));
    SGT_EXPECT(ctx == cur);
    SGT_EXPECT(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)h));
    SGT_EXPECT(type == CU_MEMORYTYPE_HOST);
    SGT_CHECK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)(uintptr_t)h + 4));
    SGT_EXPECT(dp == (CUdeviceptr)(uintptr_t)h + 4);
    SGT_CHECK(cuMemHostGetDevicePointer(&dp, h, 0));
    SGT_EXPECT(dp == (CUdeviceptr)(uintptr_t)h);
    SGT_CHECK(cuMemHostGetFlags(&flags, h));
    SGT_EXPECT(flags == (CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));

    int on_stack;
    SGT_EXPECT(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)&on_stack) ==
               CUDA_ERROR_INVALID_VALUE);
    CUpointer_attribute attrs[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED };
    unsigned int managed = 7;
    type = 7;
    void *data[] = { &type, &managed };
    SGT_CHECK(cuPointerGetAttributes(2, attrs, data, (CUdeviceptr)(uintptr_t)&on_stack));
    SGT_EXPECT(type == 0 && managed == 0);
}

static void registration(void)
{
    size_t n = 3 * 4096;
    unsigned char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(p != MAP_FAILED);
    unsigned int flags;
    CUdeviceptr dp;
    SGT_CHECK(cuMemHostRegister(p + 100, 5000, CU_MEMHOSTREGISTER_READ_ONLY | CU_MEMHOSTREGISTER_DEVICEMAP));
    SGT_EXPECT(cuMemHostRegister(p, 200, 0) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    SGT_CHECK(cuMemHostGetFlags(&flags, p + 200));
    SGT_EXPECT(flags == (CU_MEMHOSTREGISTER_READ_ONLY | CU_MEMHOSTREGISTER_DEVICEMAP));
    SGT_CHECK(cuMemHostGetDevicePointer(&dp, p + 100, 0));
    SGT_EXPECT(cuMemHostGetDevicePointer(&dp, p + 5100, 0) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(cuMemHostUnregister(p + 101) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    SGT_CHECK(cuMemHostUnregister(p + 100));
    SGT_EXPECT(cuMemHostGetDevicePointer(&dp, p + 100, 0) == CUDA_ERROR_INVALID_VALUE);
    munmap(p, n);
    SGT_EXPECT(cuMemHostRegister(p, 4096, 0) == CUDA_ERROR_INVALID_VALUE);   /* unmapped */
}

static void memsets(void)
{
    CUdeviceptr d;
    unsigned char out[64];
    SGT_CHECK(cuMemAlloc(&d, sizeof out));
    SGT_CHECK(cuMemsetD8(d, 0xab, sizeof out));
    SGT_CHECK(cuMemsetD16Async(d + 2, 0x1234, 2, NULL));
    SGT_CHECK(cuMemsetD32Async(d + 8, 0xdeadbeef, 1, NULL));
    SGT_CHECK(cuMemcpyDtoH(out, d, sizeof out));
    SGT_EXPECT(out[0] == 0xab && out[1] == 0xab && out[63] == 0xab);
    SGT_EXPECT(out[2] == 0x34 && out[3] == 0x12 && out[4] == 0x34 && out[5] == 0x12 && out[6] == 0xab);
    SGT_EXPECT(out[8] == 0xef && out[11] == 0xde && out[12] == 0xab);

    /* A synchronous memset of pinned host memory is fully synchronous. */
    unsigned char *h = pinned_zeroed(100);
    SGT_CHECK(cuMemsetD8((CUdeviceptr)(uintptr_t)h, 0x5a, 100));
    SGT_EXPECT(h[0] == 0x5a && h[99] == 0x5a);
    unsigned char stack_buf[16];
    SGT_EXPECT(cuMemsetD8((CUdeviceptr)(uintptr_t)stack_buf, 0, 16) == CUDA_ERROR_INVALID_VALUE);
}

static void generic_copies(void)
{
    enum { N = 256 };
    unsigned char a[N], b[N];
    unsigned char *p = pinned_zeroed(N);
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, N));
    fill_pattern(a, N, 5);
    SGT_CHECK(cuMemcpy(d, (CUdeviceptr)(uintptr_t)a, N));              /* H2D */
    SGT_CHECK(cuMemcpy((CUdeviceptr)(uintptr_t)p, d, N));              /* D2H */
    SGT_EXPECT(has_pattern(p, N, 5));
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)b, (CUdeviceptr)(uintptr_t)p, N, NULL)); /* H2H: sync */
    SGT_EXPECT(has_pattern(b, N, 5));
    CUdeviceptr d2;
    SGT_CHECK(cuMemAlloc(&d2, N));
    SGT_CHECK(cuMemcpyDtoD(d2, d, N));
    memset(b, 0, N);
    SGT_CHECK(cuMemcpyDtoH(b, d2, N));
    SGT_EXPECT(has_pattern(b, N, 5));
}

static void copies_2d_3d(void)
{
    enum { W = 5, H = 4, D = 3, SP = 8, SH = 6, DP = 16 };
    unsigned char src[SP * SH * D], out[W * H * D];
    fill_pattern(src, sizeof src, 9);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, DP * H * D));

    /* 3D: a W x H x D box at (1, 1, 0) of a pitched host volume, to a
     * pitched device volume, back to a packed host buffer. */
    CUDA_MEMCPY3D c = { 0 };
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = src;
    c.srcXInBytes = 1;
    c.srcY = 1;
    c.srcPitch = SP;
    c.srcHeight = SH;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = dev;
    c.dstPitch = DP;
    c.dstHeight = H;
    c.WidthInBytes = W;
    c.Height = H;
    c.Depth = D;
    SGT_CHECK(cuMemcpy3D(&c));

    CUDA_MEMCPY3D back = { 0 };
    back.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    back.srcDevice = dev;
    back.srcPitch = DP;
    back.srcHeight = H;
    back.dstMemoryType = CU_MEMORYTYPE_HOST;
    back.dstHost = out;
    back.dstPitch = W;
    back.dstHeight = H;
    back.WidthInBytes = W;
    back.Height = H;
    back.Depth = D;
    SGT_CHECK(cuMemcpy3DAsync(&back, NULL));     /* pageable destination: waits */
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                SGT_EXPECT(out[(z * H + y) * W + x] == src[(z * SH + y + 1) * SP + x + 1]);

    /* 2D: one slice back. */
    unsigned char row[W * H];
    CUDA_MEMCPY2D c2 = { 0 };
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = dev + DP * H;                  /* slice 1 */
    c2.srcPitch = DP;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = row;
    c2.dstPitch = W;
    c2.WidthInBytes = W;
    c2.Height = H;
    SGT_CHECK(cuMemcpy2D(&c2));
    SGT_EXPECT(memcmp(row, out + W * H, sizeof row) == 0);

    c2.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    SGT_EXPECT(cuMemcpy2D(&c2) == CUDA_ERROR_NOT_SUPPORTED);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcPitch = 2;                              /* rows would overlap */
    SGT_EXPECT(cuMemcpy2D(&c2) == CUDA_ERROR_INVALID_VALUE);
}

/* Synchronous 2D memsets: of device memory they return before running
 * (held: not done), of pinned memory once done (the release fires). */
static void memsets_2d_sync(void)
{
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, 256));
    SGT_CHECK(cuMemsetD8(d, 0, 256));
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemsetD2D32(d, 64, 0x01020304u, 4, 4)); /* 4 rows of 16 bytes, 64 apart */
    SGT_EXPECT(cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    unsigned char out[256];
    SGT_CHECK(cuMemcpyDtoH(out, d, sizeof out));
    SGT_EXPECT(out[0] == 4 && out[15] == 1 && out[16] == 0 && out[64 * 3 + 12] == 4 && out[255] == 0);
    unsigned char *h = pinned_zeroed(256);
    hold = sgt_hold_stream(NULL);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemsetD2D8((CUdeviceptr)(uintptr_t)h, 32, 0x5a, 8, 8)); /* waits */
    SGT_EXPECT(h[0] == 0x5a && h[7] == 0x5a && h[8] == 0 && h[32 * 7 + 7] == 0x5a);
    SGT_CHECK(cuMemFreeHost(h));
    SGT_CHECK(cuMemFree(d));
}

/* A 1D array and host memory: a byte offset into it, in stream order. */
static void array_copies(void)
{
    CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = 256, .Format = CU_AD_FORMAT_UNSIGNED_INT8, .NumChannels = 4 };
    CUarray arr;
    SGT_CHECK(cuArray3DCreate(&arr, &ad));
    unsigned char src[1024], back[1024];
    fill_pattern(src, sizeof src, 3);
    SGT_CHECK(cuMemcpyHtoA(arr, 0, src, sizeof src));
    SGT_EXPECT(cuMemcpyHtoA(arr, 1000, src, 100) == CUDA_ERROR_INVALID_VALUE); /* past its end */
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    unsigned char *h = pinned_zeroed(512);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyAtoHAsync(h, arr, 512, 512, s));
    SGT_EXPECT(all_zero(h, 512));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(memcmp(h, src + 512, 512) == 0);
    memset(h, 0x77, 512);
    SGT_CHECK(cuMemcpyHtoAAsync(arr, 0, h, 512, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyAtoH(back, arr, 0, sizeof back));
    SGT_EXPECT(back[0] == 0x77 && back[511] == 0x77 && memcmp(back + 512, src + 512, 512) == 0);
    SGT_CHECK(cuMemFreeHost(h));
    SGT_CHECK(cuStreamDestroy(s));
    SGT_CHECK(cuArrayDestroy(arr));
}

/* cuMemcpy3DPeer*: a 3D copy naming both sides' contexts, which must be
 * usable. */
static void copies_3d_peer(void)
{
    CUcontext ctx;
    SGT_CHECK(cuCtxGetCurrent(&ctx));
    CUdeviceptr d = device_with_pattern(1024, 4);
    unsigned char *h = pinned_zeroed(2048);
    CUDA_MEMCPY3D_PEER p = { .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d, .srcContext = ctx,
                             .srcPitch = 256, .srcHeight = 4, .dstMemoryType = CU_MEMORYTYPE_HOST,
                             .dstHost = h, .dstContext = ctx, .dstPitch = 512, .dstHeight = 4,
                             .WidthInBytes = 256, .Height = 4, .Depth = 1 };
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpy3DPeerAsync(&p, s));
    SGT_EXPECT(all_zero(h, 2048));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned char want[256];
    fill_pattern(want, sizeof want, 4);
    SGT_EXPECT(memcmp(h, want, 256) == 0 && all_zero(h + 256, 256));
    memset(h, 0, 2048);
    SGT_CHECK(cuMemcpy3DPeer(&p));
    SGT_EXPECT(memcmp(h, want, 256) == 0);
    p.srcContext = NULL;
    SGT_EXPECT(cuMemcpy3DPeer(&p) != CUDA_SUCCESS);
    SGT_CHECK(cuStreamDestroy(s));
    SGT_CHECK(cuMemFreeHost(h));
    SGT_CHECK(cuMemFree(d));
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    memsets_2d_sync();
    array_copies();
    copies_3d_peer();
    pointer_attributes();
    registration();
    memsets();
    generic_copies();
    copies_2d_3d();
    size_t free_b, total;
    SGT_CHECK(cuMemGetInfo(&free_b, &total));
    SGT_EXPECT(free_b <= total);
    return pass("t-memory", "pointer attributes, registration, memsets, 1D/2D/3D/3D peer and array copies");
}
