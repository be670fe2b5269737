/* SPDX-License-Identifier: Apache-2.0 */
/* A racy program: it copies device memory into pinned host memory with
 * cuMemcpyDtoHAsync and sums the buffer without synchronizing with the
 * stream first. Natively it may print a wrong sum (zeros); under syncguard
 * the early read is reported, syncguard waits for the copy, and the sum is
 * right. Pass "sync" as the first argument for the correct version. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        CUresult r_ = (call);                                                        \
        if (r_ != CUDA_SUCCESS) {                                                    \
            const char *name_ = NULL;                                                \
            cuGetErrorName(r_, &name_);                                              \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
                    name_ ? name_ : "?");                                            \
            exit(2);                                                                 \
        }                                                                            \
    } while (0)

#define N (16u << 20) /* 16 Mi floats: 64 MiB, long enough to lose the race */

static double sum(const float *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(int argc, char **argv)
{
    int synchronize = argc > 1 && strcmp(argv[1], "sync") == 0;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    CUdeviceptr d;
    float *h;

    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CHECK(cuMemAlloc(&d, N * sizeof(float)));
    /* 1.0f everywhere, in stream order before the copy (a memset on the
     * legacy stream would not be ordered before a non-blocking stream). */
    CHECK(cuMemsetD32Async(d, 0x3f800000u, N, stream));
    CHECK(cuMemAllocHost((void **)&h, N * sizeof(float)));
    memset(h, 0, N * sizeof(float));

    CHECK(cuMemcpyDtoHAsync(h, d, N * sizeof(float), stream));
    if (synchronize)
        CHECK(cuStreamSynchronize(stream));
    double s = sum(h, N); /* the race, unless synchronized */
    printf("sum=%.0f expected=%u %s\n", s, N, s == N ? "(correct)" : "(WRONG: read too early)");

    CHECK(cuStreamSynchronize(stream));
    CHECK(cuMemFreeHost(h));
    CHECK(cuMemFree(d));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return s == N ? 0 : 1;
}
