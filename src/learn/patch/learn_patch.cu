/* SPDX-License-Identifier: Apache-2.0 */
/* The device side of learning (learn/patch/record.h): the functions the
 * Compute Sanitizer API calls from a patched kernel, given the launch's
 * record as userdata (NULL for a launch not being learnt). Compiled by nvcc
 * as a tools patch (--compile-as-tools-patch) into a fatbinary that the
 * library carries (learn/patch_image.c) and hands to sanitizerAddPatches.
 * The types are the API's, declared by value: no NVIDIA header needed. */
#include <stdint.h>

#include "learn/patch/record.h"

typedef int sg_patch_result; /* SanitizerPatchResult: 0 is SANITIZER_PATCH_SUCCESS */

static __device__ __forceinline__ unsigned long long sg_thread_number(void)
{
    unsigned long long block = blockIdx.x + (unsigned long long)gridDim.x *
                                                (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    unsigned long long in_block = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return block * ((unsigned long long)blockDim.x * blockDim.y * blockDim.z) + in_block;
}

extern "C" __device__ __noinline__ sg_patch_result sg_learn_access(void *userdata, uint64_t pc, void *ptr,
                                                                 uint32_t size, uint32_t flags,
                                                                 const void *new_value)
{
    (void)pc;
    sg_rec_access((struct sg_rec *)userdata, (unsigned long long)(uintptr_t)ptr, size, flags, new_value,
                  sg_thread_number());
    return 0;
}

extern "C" __device__ __noinline__ sg_patch_result sg_learn_block_enter(void *userdata, uint64_t pc)
{
    (void)pc;
    sg_rec_block_began((struct sg_rec *)userdata);
    return 0;
}
