/* SPDX-License-Identifier: Apache-2.0 */
/* libcuda.so.1 and the driver functions syncguard calls for itself. */
#include "config.h"

#include <dlfcn.h>
#include <stdatomic.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
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
        SG_WARN_ONCE("cannot load libcuda.so.1 (%s); CUDA calls will fail\n", dlerror());
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

/* Every member of struct sg_driver: (member, symbol, parameters, arguments). */
#define SG_DRIVER_FUNCTIONS(X) \
    X(cuCtxGetCurrent, "cuCtxGetCurrent", (CUcontext *a), (a)) \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext a), (a)) \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext *a), (a)) \
    X(cuStreamGetFlags, "cuStreamGetFlags", (CUstream a, unsigned int *b), (a, b)) \
    X(cuStreamGetCtx, "cuStreamGetCtx", (CUstream a, CUcontext *b), (a, b)) \
    X(cuStreamIsCapturing, "cuStreamIsCapturing", (CUstream a, CUstreamCaptureStatus *b), (a, b)) \
    X(cuEventCreate, "cuEventCreate", (CUevent *a, unsigned int b), (a, b)) \
    X(cuEventDestroy, "cuEventDestroy_v2", (CUevent a), (a)) \
    X(cuEventRecord, "cuEventRecord", (CUevent a, CUstream b), (a, b)) \
    X(cuEventQuery, "cuEventQuery", (CUevent a), (a)) \
    X(cuEventSynchronize, "cuEventSynchronize", (CUevent a), (a)) \
    X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream a), (a)) \
    X(cuStreamWaitEvent, "cuStreamWaitEvent", (CUstream a, CUevent b, unsigned int c), (a, b, c)) \
    X(cuMemGetAddressRange, "cuMemGetAddressRange_v2", (CUdeviceptr *a, size_t *b, CUdeviceptr c), (a, b, c)) \
    X(cuGraphGetNodes, "cuGraphGetNodes", (CUgraph a, CUgraphNode *b, size_t *c), (a, b, c)) \
    X(cuGraphNodeGetType, "cuGraphNodeGetType", (CUgraphNode a, CUgraphNodeType *b), (a, b)) \
    X(cuGraphMemcpyNodeGetParams, "cuGraphMemcpyNodeGetParams", (CUgraphNode a, CUDA_MEMCPY3D *b), (a, b)) \
    X(cuGraphMemsetNodeGetParams, "cuGraphMemsetNodeGetParams", (CUgraphNode a, CUDA_MEMSET_NODE_PARAMS *b), (a, b)) \
    X(cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2", (CUgraphNode a, CUDA_KERNEL_NODE_PARAMS *b), (a, b)) \
    X(cuGraphBatchMemOpNodeGetParams, "cuGraphBatchMemOpNodeGetParams", (CUgraphNode a, CUDA_BATCH_MEM_OP_NODE_PARAMS *b), (a, b)) \
    X(cuGraphChildGraphNodeGetGraph, "cuGraphChildGraphNodeGetGraph", (CUgraphNode a, CUgraph *b), (a, b)) \
    X(cuGraphHostNodeGetParams, "cuGraphHostNodeGetParams", (CUgraphNode a, CUDA_HOST_NODE_PARAMS *b), (a, b)) \
    X(cuPointerGetAttribute, "cuPointerGetAttribute", (void *a, CUpointer_attribute b, CUdeviceptr c), (a, b, c)) \
    X(cuPointerGetAttributes, "cuPointerGetAttributes", (unsigned int a, CUpointer_attribute *b, void **c, CUdeviceptr d), (a, b, c, d)) \
    X(cuGraphNodeGetDependencies_v2, "cuGraphNodeGetDependencies_v2", (CUgraphNode a, CUgraphNode *b, CUgraphEdgeData *c, size_t *d), (a, b, c, d)) \
    X(cuGraphNodeGetDependencies_v1, "cuGraphNodeGetDependencies", (CUgraphNode a, CUgraphNode *b, size_t *c), (a, b, c)) \
    X(cuGraphEventRecordNodeGetEvent, "cuGraphEventRecordNodeGetEvent", (CUgraphNode a, CUevent *b), (a, b)) \
    X(cuGraphEventWaitNodeGetEvent, "cuGraphEventWaitNodeGetEvent", (CUgraphNode a, CUevent *b), (a, b)) \
    X(cuDevicePrimaryCtxGetState, "cuDevicePrimaryCtxGetState", (CUdevice a, unsigned int *b, int *c), (a, b, c)) \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *a, CUdevice b), (a, b)) \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice a), (a)) \
    X(cuArray3DGetDescriptor, "cuArray3DGetDescriptor_v2", (CUDA_ARRAY3D_DESCRIPTOR *a, CUarray b), (a, b)) \
    X(cuFuncGetParamInfo, "cuFuncGetParamInfo", (CUfunction a, size_t b, size_t *c, size_t *d), (a, b, c, d)) \
    X(cuKernelGetParamInfo, "cuKernelGetParamInfo", (CUkernel a, size_t b, size_t *c, size_t *d), (a, b, c, d)) \
    X(cuFuncGetName, "cuFuncGetName", (const char **a, CUfunction b), (a, b)) \
    X(cuKernelGetName, "cuKernelGetName", (const char **a, CUkernel b), (a, b))

/* The driver's functions as found, and syncguard's calls of them through
 * wrappers that count them in sg_in_driver (base/lock.h): a fault inside
 * one (a signal handler of the program that interrupted it) must not call
 * the driver again. */
static struct sg_driver real;

#define SG_DRIVER_WRAPPER(member, symbol, params, args) \
    static CUresult wrap_##member params                \
    {                                                   \
        return SG_DRIVER_CALL(real.member args);        \
    }
SG_DRIVER_FUNCTIONS(SG_DRIVER_WRAPPER)
#undef SG_DRIVER_WRAPPER

const struct sg_driver *sg_driver(void)
{
    static struct sg_driver d;
    static atomic_int ready;
    if (SG_LIKELY(atomic_load_explicit(&ready, memory_order_acquire)))
        return &d;
    /* Racing threads fill it with the same values: harmless. */
#define SG_DRIVER_FIND(member, symbol, params, args) \
    real.member = driver_fn(symbol);                 \
    d.member = real.member ? wrap_##member : NULL;
    SG_DRIVER_FUNCTIONS(SG_DRIVER_FIND)
#undef SG_DRIVER_FIND
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
