/* SPDX-License-Identifier: Apache-2.0 */
/* The part of NVIDIA's Compute Sanitizer API that syncguard uses, declared
 * here from its documentation: the API's headers ship only with the CUDA
 * toolkit's compute-sanitizer folder, which a build machine may lack, and
 * the library is loaded at run time (learn/sanitizer.c). Names carry an sg_
 * prefix so that a file may include these and NVIDIA's headers together:
 * tests/gpu/check_sanitizer_decls.c does, on the GPU machine, and checks
 * every value, size and offset below against the real ones.
 *
 * The emulator (tests/emu/sanitizer.c) implements the same functions, so
 * that make check exercises learning without a GPU. */
#ifndef SG_LEARN_SANITIZER_API_H
#define SG_LEARN_SANITIZER_API_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

typedef int sg_san_result; /* SanitizerResult: 0 is success */
#define SG_SAN_SUCCESS 0
#define SG_SAN_ERROR_MAX_LIMIT_REACHED 10

typedef struct sg_san_subscriber_st *sg_san_subscriber;
typedef struct sg_san_stream_st *sg_san_stream;
typedef struct sg_san_launch_st *sg_san_launch;

/* Callback domains and ids (Sanitizer_CallbackDomain, Sanitizer_CallbackId*) */
enum {
    SG_SAN_DOMAIN_RESOURCE = 3,
    SG_SAN_DOMAIN_SYNCHRONIZE = 4,
    SG_SAN_DOMAIN_LAUNCH = 5,
};
enum {
    SG_SAN_CBID_RESOURCE_CONTEXT_DESTROY_STARTING = 4,
    SG_SAN_CBID_RESOURCE_MODULE_LOADED = 9,
    SG_SAN_CBID_RESOURCE_MODULE_UNLOAD_STARTING = 10,
    SG_SAN_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED = 1,
    SG_SAN_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED = 2,
    SG_SAN_CBID_LAUNCH_BEGIN = 1,
    SG_SAN_CBID_LAUNCH_END = 3,
};

/* Patchable instructions (Sanitizer_InstructionId) */
enum {
    SG_SAN_INSTRUCTION_BLOCK_ENTER = 1,
    SG_SAN_INSTRUCTION_GLOBAL_MEMORY_ACCESS = 3,
};

/* The flags a global memory access callback is given
 * (Sanitizer_DeviceMemoryFlags). An atomic is reported as a write whose
 * new-value pointer is NULL. */
enum {
    SG_SAN_MEMORY_READ = 0x1,
    SG_SAN_MEMORY_WRITE = 0x2,
    SG_SAN_MEMORY_ATOMSYS = 0x4,
    SG_SAN_MEMORY_PREFETCH = 0x8,
};

/* Sanitizer_ResourceContextData */
struct sg_san_context_data {
    CUcontext context;
    CUdevice device;
};

/* Sanitizer_ResourceModuleData */
struct sg_san_module_data {
    CUcontext context;
    CUmodule module;
    size_t cubinSize;
    const char *pCubin;
    CUlibrary library;
};

/* Sanitizer_SynchronizeData */
struct sg_san_sync_data {
    CUcontext context;
    CUstream stream;
    sg_san_stream hStream;
};

/* Sanitizer_LaunchData */
struct sg_san_launch_data {
    CUcontext context;
    CUstream stream;
    sg_san_stream hStream;
    CUmodule module;
    CUfunction function;
    const char *functionName;
    uint32_t gridDim_x, gridDim_y, gridDim_z;
    uint32_t blockDim_x, blockDim_y, blockDim_z;
    uint32_t clusterDim_x, clusterDim_y, clusterDim_z;
    uint64_t gridId;
    sg_san_launch hLaunch;
    CUdevice device;
    CUcontext apiContext;
    CUstream apiStream;
    sg_san_stream hApiStream;
};

typedef void (*sg_san_callback_fn)(void *userdata, int domain, uint32_t cbid, const void *cbdata);

/* The functions syncguard looks up in the library, as X(name, return,
 * parameters): one table (learn/sanitizer.c) and the emulator's
 * definitions follow it. */
#define SG_SAN_FUNCTIONS(X)                                                                       \
    X(sanitizerSubscribe, sg_san_result, (sg_san_subscriber * sub, sg_san_callback_fn fn, void *ud)) \
    X(sanitizerUnsubscribe, sg_san_result, (sg_san_subscriber sub))                               \
    X(sanitizerEnableCallback, sg_san_result,                                                     \
      (uint32_t enable, sg_san_subscriber sub, int domain, uint32_t cbid))                        \
    X(sanitizerGetResultString, sg_san_result, (sg_san_result r, const char **str))               \
    X(sanitizerAddPatches, sg_san_result, (const void *image, CUcontext ctx))                     \
    X(sanitizerPatchInstructions, sg_san_result, (int instruction, CUmodule module, const char *name)) \
    X(sanitizerPatchModule, sg_san_result, (CUmodule module))                                     \
    X(sanitizerUnpatchModule, sg_san_result, (CUmodule module))                                   \
    X(sanitizerSetLaunchCallbackData, sg_san_result,                                              \
      (sg_san_launch launch, CUfunction f, sg_san_stream stream, const void *ud))                 \
    X(sanitizerAlloc, sg_san_result, (CUcontext ctx, void **ptr, size_t size))                    \
    X(sanitizerFree, sg_san_result, (CUcontext ctx, void *ptr))                                   \
    X(sanitizerMemcpyHostToDeviceAsync, sg_san_result,                                            \
      (void *dst, void *src, size_t n, sg_san_stream stream))                                     \
    X(sanitizerMemcpyDeviceToHost, sg_san_result, (void *dst, void *src, size_t n, sg_san_stream stream))

#endif
