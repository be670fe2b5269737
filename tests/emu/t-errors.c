/* SPDX-License-Identifier: Apache-2.0 */
/* Error reporting: before cuInit, without a context, with bad handles and
 * arguments; error names and strings; device queries. */
#include "t-util.h"

#include <stdlib.h>

static void before_init(void)
{
    int v = 0, n;
    CUcontext c;
    CUdeviceptr d;
    SGT_CHECK(cuDriverGetVersion(&v));
    SGT_EXPECT(v == 13000);
    SGT_EXPECT(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_INITIALIZED);
    SGT_EXPECT(cuCtxGetCurrent(&c) == CUDA_ERROR_NOT_INITIALIZED);
    SGT_EXPECT(cuMemAlloc(&d, 16) == CUDA_ERROR_NOT_INITIALIZED);
    SGT_EXPECT(cuStreamSynchronize(NULL) == CUDA_ERROR_NOT_INITIALIZED);
    SGT_EXPECT(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
}

static void without_context(void)
{
    CUcontext c = (CUcontext)1;
    CUdeviceptr d;
    CUstream s;
    SGT_CHECK(cuCtxGetCurrent(&c));
    SGT_EXPECT(c == NULL);
    SGT_EXPECT(cuMemAlloc(&d, 16) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_EXPECT(cuStreamCreate(&s, 0) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_EXPECT(cuStreamSynchronize(NULL) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_EXPECT(cuCtxSynchronize() == CUDA_ERROR_INVALID_CONTEXT);
}

static void bad_arguments(void)
{
    CUstream s, bogus = (CUstream)(uintptr_t)0x1234;
    CUevent ev, bogus_ev = (CUevent)(uintptr_t)0x5678;
    CUdeviceptr d;
    SGT_EXPECT(cuStreamSynchronize(bogus) == CUDA_ERROR_INVALID_HANDLE);
    SGT_EXPECT(cuStreamQuery(bogus) == CUDA_ERROR_INVALID_HANDLE);
    SGT_EXPECT(cuEventQuery(bogus_ev) == CUDA_ERROR_INVALID_HANDLE);
    SGT_EXPECT(cuStreamDestroy(NULL) == CUDA_ERROR_INVALID_HANDLE);
    SGT_CHECK(cuStreamCreate(&s, 0));
    SGT_CHECK(cuStreamDestroy(s));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_INVALID_HANDLE);
    SGT_EXPECT(cuStreamCreate(&s, 0x40) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(cuEventCreate(&ev, CU_EVENT_INTERPROCESS) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(cuMemAlloc(&d, 0) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuMemAlloc(&d, 64));
    unsigned char buf[128];
    SGT_EXPECT(cuMemcpyDtoH(buf, d, sizeof buf) == CUDA_ERROR_INVALID_VALUE);   /* past the end */
    SGT_EXPECT(cuMemcpyHtoD((CUdeviceptr)(uintptr_t)buf, buf, 16) == CUDA_ERROR_INVALID_VALUE);
    SGT_EXPECT(cuMemsetD32(d + 1, 0, 1) == CUDA_ERROR_INVALID_VALUE);           /* misaligned */
    SGT_EXPECT(cuMemFree(d + 8) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuMemFree(d));
}

static void names_and_strings(void)
{
    const char *s;
    SGT_CHECK(cuGetErrorName(CUDA_ERROR_INVALID_HANDLE, &s));
    SGT_EXPECT(strcmp(s, "CUDA_ERROR_INVALID_HANDLE") == 0);
    SGT_CHECK(cuGetErrorString(CUDA_ERROR_NOT_READY, &s));
    SGT_EXPECT(strcmp(s, "device not ready") == 0);
    SGT_EXPECT(cuGetErrorName((CUresult)12345, &s) == CUDA_ERROR_INVALID_VALUE && s == NULL);
}

static void devices(void)
{
    int n, v;
    char name[64];
    CUdevice dev;
    size_t total;
    SGT_CHECK(cuDeviceGetCount(&n));
    const char *env = getenv("SGEMU_DEVICES");
    SGT_EXPECT(n == (env ? atoi(env) : 1));
    SGT_EXPECT(cuDeviceGet(&dev, n) == CUDA_ERROR_INVALID_DEVICE);
    SGT_CHECK(cuDeviceGet(&dev, 0));
    SGT_CHECK(cuDeviceGetName(name, sizeof name, dev));
    SGT_EXPECT(strcmp(name, "syncguard CPU emulator") == 0);
    SGT_CHECK(cuDeviceTotalMem(&total, dev));
    SGT_EXPECT(total > 0);
    const CUdevice_attribute ones[] = {
        CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
        CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
    };
    for (size_t i = 0; i < sizeof ones / sizeof *ones; i++) {
        SGT_CHECK(cuDeviceGetAttribute(&v, ones[i], dev));
        SGT_EXPECT(v == 1);
    }
    SGT_CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev));
    SGT_EXPECT(v == 0);
    SGT_EXPECT(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, dev) == CUDA_ERROR_INVALID_VALUE);
}

int main(void)
{
    sgt_watchdog(30);
    before_init();
    SGT_CHECK(cuInit(0));
    without_context();
    devices();
    names_and_strings();
    sgt_init();
    bad_arguments();
    return pass("t-errors", "errors before init, without context, for bad handles and arguments");
}
