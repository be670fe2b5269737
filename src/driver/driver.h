/* SPDX-License-Identifier: Apache-2.0 */
/* The driver for syncguard's own use: libcuda.so.1, and the functions
 * syncguard calls for itself and does not wrap. */
#ifndef SG_DRIVER_DRIVER_H
#define SG_DRIVER_DRIVER_H

#include <cuda.h>

struct sg_driver {
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxPushCurrent)(CUcontext);
    CUresult (*cuCtxPopCurrent)(CUcontext *);
    CUresult (*cuStreamGetFlags)(CUstream, unsigned int *);
    CUresult (*cuStreamGetCtx)(CUstream, CUcontext *);
    CUresult (*cuStreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
    CUresult (*cuEventCreate)(CUevent *, unsigned int);
    CUresult (*cuEventDestroy)(CUevent);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventQuery)(CUevent);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned int); /* devmem/'s fix */
    CUresult (*cuMemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr); /* _v2 */
    CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode *, size_t *);
    CUresult (*cuGraphNodeGetType)(CUgraphNode, CUgraphNodeType *);
    CUresult (*cuGraphMemcpyNodeGetParams)(CUgraphNode, CUDA_MEMCPY3D *);
    CUresult (*cuGraphMemsetNodeGetParams)(CUgraphNode, CUDA_MEMSET_NODE_PARAMS *);
    CUresult (*cuGraphKernelNodeGetParams)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *); /* _v2 */
    CUresult (*cuGraphBatchMemOpNodeGetParams)(CUgraphNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *);
    CUresult (*cuGraphChildGraphNodeGetGraph)(CUgraphNode, CUgraph *);
    CUresult (*cuGraphHostNodeGetParams)(CUgraphNode, CUDA_HOST_NODE_PARAMS *);
    CUresult (*cuPointerGetAttribute)(void *, CUpointer_attribute, CUdeviceptr);
    CUresult (*cuPointerGetAttributes)(unsigned int, CUpointer_attribute *, void **, CUdeviceptr);
    /* graph dependencies: the 12.3 ABI, else the 10.0 one */
    CUresult (*cuGraphNodeGetDependencies_v2)(CUgraphNode, CUgraphNode *, CUgraphEdgeData *, size_t *);
    CUresult (*cuGraphNodeGetDependencies_v1)(CUgraphNode, CUgraphNode *, size_t *);
    CUresult (*cuGraphEventRecordNodeGetEvent)(CUgraphNode, CUevent *);
    CUresult (*cuGraphEventWaitNodeGetEvent)(CUgraphNode, CUevent *);
    CUresult (*cuDevicePrimaryCtxGetState)(CUdevice, unsigned int *, int *);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuArray3DGetDescriptor)(CUDA_ARRAY3D_DESCRIPTOR *, CUarray);
    /* kernel parameters and names (CUDA 12.3/12.4+; kparams.c) */
    CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);
    CUresult (*cuKernelGetParamInfo)(CUkernel, size_t, size_t *, size_t *);
    CUresult (*cuFuncGetName)(const char **, CUfunction);
    CUresult (*cuKernelGetName)(const char **, CUkernel);
};
/* Filled on first use; members are NULL where the driver lacks them. */
const struct sg_driver *sg_driver(void);

/* libcuda.so.1, loaded if the program has not loaded it yet. */
void *sg_libcuda(void);

/* The current context, from the driver (not wrapped). */
CUcontext sg_current_ctx(void);
/* Whether the primary context of dev is active (retained, not torn down). */
int sg_primary_active(CUdevice dev);
/* The primary context of dev if it is active, else NULL (then it has no
 * work). */
CUcontext sg_primary_ctx_if_active(CUdevice dev);
/* Bytes per element of a CUDA array (its format times its channels); 0
 * when unknown (a format without a fixed element size). */
size_t sg_array_elem_bytes(CUarray a);

#endif
