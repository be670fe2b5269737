/* SPDX-License-Identifier: Apache-2.0 */
/* t-kernel: modules, functions and launches (emu/kernel.c): parameter
 * layouts and names as registered, a launch runs in stream order after
 * held work with the parameters of the call (kernelParams or extra's
 * buffer), writes protected pinned memory like a device, and mapped memory
 * with a device address of its own (SGEMU_DEVICE_ALIAS=1) is one memory
 * seen at two addresses; a module's function handles die with it (unload,
 * its context's teardown) and come back, last freed first, naming the
 * kernel the next look-up asks for. */
#include <stdlib.h>
#include <sys/mman.h>

#include "sgt_kernels.h"
#include "t-util.h"

#define WORDS 1024u

static void check_layout(CUfunction f)
{
    const char *name;
    size_t off, size;
    SGT_CHECK(cuFuncGetName(&name, f));
    SGT_EXPECT(strcmp(name, "sgt_fill") == 0);
    SGT_CHECK(cuFuncGetParamInfo(f, 1, &off, &size));
    SGT_EXPECT(off == 8 && size == 4);
    SGT_EXPECT(cuFuncGetParamInfo(f, 3, &off, &size) == CUDA_ERROR_INVALID_VALUE);
    CUmodule m;
    SGT_CHECK(cuModuleLoadData(&m, sgt_kernels_ptx));
    CUfunction none;
    SGT_EXPECT(cuModuleGetFunction(&none, m, "no_such_kernel") == CUDA_ERROR_NOT_FOUND);
    SGT_CHECK(cuModuleUnload(m));
    SGT_EXPECT(cuModuleGetFunction(&none, m, "sgt_fill") == CUDA_ERROR_INVALID_HANDLE);
}

static bool all_words(const uint32_t *h, uint32_t v)
{
    for (unsigned i = 0; i < WORDS; i++)
        if (h[i] != v)
            return false;
    return true;
}

/* Held, the launch has not run; the parameters are the call's even though
 * the caller's variables changed since; the memory was PROT_NONE. */
static void check_stream_order(CUfunction f)
{
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    uint32_t *h;
    SGT_CHECK(cuMemAllocHost((void **)&h, WORDS * 4));
    memset(h, 0, WORDS * 4);
    sgt_hold *hold = sgt_hold_stream(s);
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)h;
    unsigned n = WORDS, v = 7;
    void *params[] = { &p, &n, &v };
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
    v = 9;
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_words(h, 0));
    SGT_EXPECT(mprotect(h, WORDS * 4, PROT_NONE) == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(mprotect(h, WORDS * 4, PROT_READ | PROT_WRITE) == 0);
    SGT_EXPECT(all_words(h, 7));

    struct sgt_fill_args packed = { p, WORDS, 11 };
    size_t size = sizeof packed;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      CU_LAUNCH_PARAM_END };
    CUlaunchConfig cfg = { .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1,
                           .blockDimY = 1, .blockDimZ = 1, .hStream = s };
    SGT_CHECK(cuLaunchKernelEx(&cfg, f, NULL, extra));
    SGT_EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, extra) == CUDA_ERROR_INVALID_VALUE);
    size = 8; /* too short for the parameters */
    SGT_EXPECT(cuLaunchKernelEx(&cfg, f, NULL, extra) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(all_words(h, 11));
    SGT_CHECK(cuMemFreeHost(h));
    SGT_CHECK(cuStreamDestroy(s));
}

/* A device address of its own: the kernel writes through it, the host
 * reads its own address; the attributes name each from the other. */
static void check_alias(CUfunction f)
{
    setenv("SGEMU_DEVICE_ALIAS", "1", 1);
    uint32_t *h;
    SGT_CHECK(cuMemHostAlloc((void **)&h, WORDS * 4, CU_MEMHOSTALLOC_DEVICEMAP));
    unsetenv("SGEMU_DEVICE_ALIAS");
    memset(h, 0, WORDS * 4);
    CUdeviceptr d, attr;
    void *back;
    SGT_CHECK(cuMemHostGetDevicePointer(&d, h, 0));
    SGT_EXPECT(d != (CUdeviceptr)(uintptr_t)h);
    SGT_CHECK(cuPointerGetAttribute(&attr, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)(uintptr_t)h));
    SGT_EXPECT(attr == d);
    SGT_CHECK(cuPointerGetAttribute(&back, CU_POINTER_ATTRIBUTE_HOST_POINTER, d + 8));
    SGT_EXPECT(back == (void *)(h + 2));
    SGT_EXPECT(mprotect(h, WORDS * 4, PROT_NONE) == 0);
    sgt_launch_fill(f, NULL, d, WORDS, 5);
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(mprotect(h, WORDS * 4, PROT_READ | PROT_WRITE) == 0);
    SGT_EXPECT(all_words(h, 5));
    SGT_CHECK(cuMemFreeHost(h));
}

/* The handle of an unloaded module's function is refused, then given to
 * the next function looked up, with that function's layout. */
static void check_handle_reuse(void)
{
    CUcontext c;
    CUmodule m;
    CUfunction fill, strukt;
    size_t off, size;
    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    SGT_CHECK(cuModuleLoadData(&m, sgt_kernels_ptx));
    SGT_CHECK(cuModuleGetFunction(&fill, m, "sgt_fill"));
    SGT_CHECK(cuCtxDestroy(c));
    SGT_EXPECT(cuFuncGetParamInfo(fill, 0, &off, &size) == CUDA_ERROR_INVALID_HANDLE);
    SGT_EXPECT(cuLaunchKernel(fill, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL) == CUDA_ERROR_INVALID_HANDLE);
    SGT_CHECK(cuModuleLoadData(&m, sgt_kernels_ptx));
    SGT_CHECK(cuModuleGetFunction(&strukt, m, "sgt_fill_struct"));
    SGT_EXPECT(strukt == fill);
    SGT_CHECK(cuFuncGetParamInfo(strukt, 0, &off, &size));
    SGT_EXPECT(off == 0 && size == 16);
    SGT_EXPECT(cuFuncGetParamInfo(strukt, 1, &off, &size) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuModuleUnload(m));
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUfunction f = sgt_kernel("sgt_fill");
    check_layout(f);
    check_stream_order(f);
    check_alias(f);
    check_handle_reuse();
    printf("PASS: t-kernel\n");
    return 0;
}
