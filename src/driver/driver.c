/* SPDX-License-Identifier: Apache-2.0 */
/* libcuda.so.1 and the driver functions syncguard calls for itself. */
#include "config.h"

#include <dlfcn.h>
#include <stdatomic.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/log.h"
#include "driver/driver.h"

void *sg_libcuda(void)
{
    static void *_Atomic handle;
    void *h = atomic_load(&handle);
    if (h)
        return h;
    h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        h = dlopen("libcuda.so.1", RTLD_LAZY);
    if (!h) {
        static int said;
        sg_log_warn_once(&said, "cannot load libcuda.so.1 (%s); CUDA calls will fail", dlerror());
        return NULL;
    }
    atomic_store(&handle, h);
    return h;
}

static void *driver_fn(const char *name)
{
    void *lib = sg_libcuda();
    return lib ? sg_real_dlsym(lib, name) : NULL;
}

const struct sg_driver *sg_driver(void)
{
    static struct sg_driver d;
    static atomic_int ready;
    if (SG_LIKELY(atomic_load_explicit(&ready, memory_order_acquire)))
        return &d;
    /* Racing threads fill it with the same values: harmless. */
    d.cuCtxGetCurrent = driver_fn("cuCtxGetCurrent");
    d.cuCtxPushCurrent = driver_fn("cuCtxPushCurrent_v2");
    d.cuCtxPopCurrent = driver_fn("cuCtxPopCurrent_v2");
    d.cuStreamGetFlags = driver_fn("cuStreamGetFlags");
    d.cuStreamGetCtx = driver_fn("cuStreamGetCtx");
    d.cuStreamIsCapturing = driver_fn("cuStreamIsCapturing");
    d.cuEventCreate = driver_fn("cuEventCreate");
    d.cuEventDestroy = driver_fn("cuEventDestroy_v2");
    d.cuEventRecord = driver_fn("cuEventRecord");
    d.cuEventQuery = driver_fn("cuEventQuery");
    d.cuEventSynchronize = driver_fn("cuEventSynchronize");
    d.cuStreamSynchronize = driver_fn("cuStreamSynchronize");
    d.cuGraphGetNodes = driver_fn("cuGraphGetNodes");
    d.cuGraphNodeGetType = driver_fn("cuGraphNodeGetType");
    d.cuGraphMemcpyNodeGetParams = driver_fn("cuGraphMemcpyNodeGetParams");
    d.cuGraphMemsetNodeGetParams = driver_fn("cuGraphMemsetNodeGetParams");
    d.cuGraphKernelNodeGetParams = driver_fn("cuGraphKernelNodeGetParams_v2");
    d.cuGraphBatchMemOpNodeGetParams = driver_fn("cuGraphBatchMemOpNodeGetParams");
    d.cuGraphChildGraphNodeGetGraph = driver_fn("cuGraphChildGraphNodeGetGraph");
    d.cuGraphHostNodeGetParams = driver_fn("cuGraphHostNodeGetParams");
    d.cuPointerGetAttribute = driver_fn("cuPointerGetAttribute");
    d.cuPointerGetAttributes = driver_fn("cuPointerGetAttributes");
    d.cuGraphNodeGetDependencies_v2 = driver_fn("cuGraphNodeGetDependencies_v2");
    d.cuGraphNodeGetDependencies_v1 = driver_fn("cuGraphNodeGetDependencies");
    d.cuGraphEventRecordNodeGetEvent = driver_fn("cuGraphEventRecordNodeGetEvent");
    d.cuGraphEventWaitNodeGetEvent = driver_fn("cuGraphEventWaitNodeGetEvent");
    d.cuDevicePrimaryCtxGetState = driver_fn("cuDevicePrimaryCtxGetState");
    d.cuDevicePrimaryCtxRetain = driver_fn("cuDevicePrimaryCtxRetain");
    d.cuDevicePrimaryCtxRelease = driver_fn("cuDevicePrimaryCtxRelease_v2");
    d.cuArray3DGetDescriptor = driver_fn("cuArray3DGetDescriptor_v2");
    d.cuFuncGetParamInfo = driver_fn("cuFuncGetParamInfo");
    d.cuKernelGetParamInfo = driver_fn("cuKernelGetParamInfo");
    d.cuFuncGetName = driver_fn("cuFuncGetName");
    d.cuKernelGetName = driver_fn("cuKernelGetName");
    atomic_store_explicit(&ready, 1, memory_order_release);
    return &d;
}

CUcontext sg_current_ctx(void)
{
    CUcontext c = NULL;
    const struct sg_driver *d = sg_driver();
    if (d->cuCtxGetCurrent)
        d->cuCtxGetCurrent(&c);
    return c;
}

int sg_primary_active(CUdevice dev)
{
    const struct sg_driver *d = sg_driver();
    unsigned flags;
    int active = 0;
    return d->cuDevicePrimaryCtxGetState && d->cuDevicePrimaryCtxGetState(dev, &flags, &active) == CUDA_SUCCESS &&
           active;
}

/* Retain and release leave the count as it was: active means retained
 * already, so the release is not the last one (which would reset it). */
CUcontext sg_primary_ctx_if_active(CUdevice dev)
{
    const struct sg_driver *d = sg_driver();
    CUcontext ctx = NULL;
    if (!d->cuDevicePrimaryCtxRetain || !d->cuDevicePrimaryCtxRelease || !sg_primary_active(dev) ||
        d->cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS)
        return NULL;
    d->cuDevicePrimaryCtxRelease(dev);
    return ctx;
}

size_t sg_array_elem_bytes(CUarray a)
{
    const struct sg_driver *d = sg_driver();
    CUDA_ARRAY3D_DESCRIPTOR desc;
    if (!a || !d->cuArray3DGetDescriptor || d->cuArray3DGetDescriptor(&desc, a) != CUDA_SUCCESS)
        return 0;
    size_t f;
    switch (desc.Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
        f = 1;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
        f = 2;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
        f = 4;
        break;
    default:
        return 0; /* normalized, block-compressed, planar... */
    }
    return f * desc.NumChannels;
}
