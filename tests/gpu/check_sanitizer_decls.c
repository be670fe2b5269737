/* SPDX-License-Identifier: Apache-2.0 */
/* Checks syncguard's own declarations of the Compute Sanitizer API
 * (src/learn/sanitizer_api.h) against NVIDIA's headers: every constant,
 * and the size and every member's offset of each callback data struct.
 * It compiles only where the headers are (the GPU machine's
 * compute-sanitizer/include); a wrong value fails the compile.
 *   cc -I/usr/local/cuda/include -I/usr/local/cuda/compute-sanitizer/include \
 *      -Isrc tests/gpu/check_sanitizer_decls.c -o check_sanitizer_decls \
 *      -L/usr/local/cuda/compute-sanitizer -lsanitizer-public
 * (linking checks that the library defines every function syncguard looks
 * up). */
#include <sanitizer.h>
#include <stddef.h>
#include <stdio.h>

#include "learn/sanitizer_api.h"
#include "learn/patch/record.h"

#define SAME(a, b) _Static_assert((long long)(a) == (long long)(b), #a " != " #b)
#define SAME_MEMBER(ours, theirs, m) \
    _Static_assert(offsetof(ours, m) == offsetof(theirs, m), #ours "." #m " offset")

SAME(SG_SAN_SUCCESS, SANITIZER_SUCCESS);
SAME(SG_SAN_ERROR_MAX_LIMIT_REACHED, SANITIZER_ERROR_MAX_LIMIT_REACHED);
SAME(SG_SAN_DOMAIN_RESOURCE, SANITIZER_CB_DOMAIN_RESOURCE);
SAME(SG_SAN_DOMAIN_SYNCHRONIZE, SANITIZER_CB_DOMAIN_SYNCHRONIZE);
SAME(SG_SAN_DOMAIN_LAUNCH, SANITIZER_CB_DOMAIN_LAUNCH);
SAME(SG_SAN_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
SAME(SG_SAN_CBID_RESOURCE_MODULE_LOADED, SANITIZER_CBID_RESOURCE_MODULE_LOADED);
SAME(SG_SAN_CBID_RESOURCE_MODULE_UNLOAD_STARTING, SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
SAME(SG_SAN_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED, SANITIZER_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED);
SAME(SG_SAN_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED, SANITIZER_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED);
SAME(SG_SAN_CBID_LAUNCH_BEGIN, SANITIZER_CBID_LAUNCH_BEGIN);
SAME(SG_SAN_CBID_LAUNCH_END, SANITIZER_CBID_LAUNCH_END);
SAME(SG_SAN_INSTRUCTION_BLOCK_ENTER, SANITIZER_INSTRUCTION_BLOCK_ENTER);
SAME(SG_SAN_INSTRUCTION_GLOBAL_MEMORY_ACCESS, SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS);
SAME(SG_SAN_MEMORY_READ, SANITIZER_MEMORY_DEVICE_FLAG_READ);
SAME(SG_SAN_MEMORY_WRITE, SANITIZER_MEMORY_DEVICE_FLAG_WRITE);
SAME(SG_SAN_MEMORY_ATOMSYS, SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS);
SAME(SG_SAN_MEMORY_PREFETCH, SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH);
/* record.h decodes the same flags by value */
SAME(0x1, SANITIZER_MEMORY_DEVICE_FLAG_READ);
SAME(0x2, SANITIZER_MEMORY_DEVICE_FLAG_WRITE);
SAME(0x4, SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS);
SAME(sizeof(sg_san_result), sizeof(SanitizerResult));

SAME(sizeof(struct sg_san_context_data), sizeof(Sanitizer_ResourceContextData));
SAME_MEMBER(struct sg_san_context_data, Sanitizer_ResourceContextData, context);
SAME_MEMBER(struct sg_san_context_data, Sanitizer_ResourceContextData, device);

SAME(sizeof(struct sg_san_module_data), sizeof(Sanitizer_ResourceModuleData));
SAME_MEMBER(struct sg_san_module_data, Sanitizer_ResourceModuleData, context);
SAME_MEMBER(struct sg_san_module_data, Sanitizer_ResourceModuleData, module);
SAME_MEMBER(struct sg_san_module_data, Sanitizer_ResourceModuleData, cubinSize);
SAME_MEMBER(struct sg_san_module_data, Sanitizer_ResourceModuleData, pCubin);
SAME_MEMBER(struct sg_san_module_data, Sanitizer_ResourceModuleData, library);

SAME(sizeof(struct sg_san_sync_data), sizeof(Sanitizer_SynchronizeData));
SAME_MEMBER(struct sg_san_sync_data, Sanitizer_SynchronizeData, context);
SAME_MEMBER(struct sg_san_sync_data, Sanitizer_SynchronizeData, stream);
SAME_MEMBER(struct sg_san_sync_data, Sanitizer_SynchronizeData, hStream);

SAME(sizeof(struct sg_san_launch_data), sizeof(Sanitizer_LaunchData));
#define LAUNCH_MEMBER(m) SAME_MEMBER(struct sg_san_launch_data, Sanitizer_LaunchData, m)
LAUNCH_MEMBER(context);
LAUNCH_MEMBER(stream);
LAUNCH_MEMBER(hStream);
LAUNCH_MEMBER(module);
LAUNCH_MEMBER(function);
LAUNCH_MEMBER(functionName);
LAUNCH_MEMBER(gridDim_x);
LAUNCH_MEMBER(blockDim_z);
LAUNCH_MEMBER(clusterDim_z);
LAUNCH_MEMBER(gridId);
LAUNCH_MEMBER(hLaunch);
LAUNCH_MEMBER(device);
LAUNCH_MEMBER(apiContext);
LAUNCH_MEMBER(apiStream);
LAUNCH_MEMBER(hApiStream);

/* Each function the X-macro names exists with that name in the headers. */
#define EXISTS(name, ret, params) (void *)&name,
static void *const declared[] = { SG_SAN_FUNCTIONS(EXISTS) };

int main(void)
{
    printf("check: ok (%zu functions, every constant and struct layout agrees)\n",
           sizeof declared / sizeof declared[0]);
    return 0;
}
