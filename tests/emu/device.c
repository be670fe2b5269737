/* SPDX-License-Identifier: Apache-2.0 */
/* device.c - devices: enumeration, name, attributes, memory size.  Every
 * emulated device is the same modest compute capability 9.0 part; what
 * matters for the race detector is that it has unified addressing, maps
 * page-locked host memory at the same address, supports stream memory
 * operations and has no concurrent managed access. */
#include "emu.h"

#include <stdio.h>

typedef struct attr_value {
    CUdevice_attribute attr;
    int value;
} attr_value;

static const attr_value attributes[] = {
    { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024 },
    { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024 },
    { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024 },
    { CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64 },
    { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647 },
    { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535 },
    { CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535 },
    { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152 },
    { CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536 },
    { CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32 },
    { CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647 },
    { CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536 },
    { CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1000000 },
    { CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512 },
    { CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1 },
    { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1 },
    { CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT },
    { CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1 },
    { CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 1000000 },
    { CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 64 },
    { CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 1 << 20 },
    { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048 },
    { CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 2 },
    { CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
    { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
    { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
    { CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 1 },
    { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 65536 },
    { CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536 },
    { CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
    { CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0 },
    { CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 1 },
    { CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 49152 },
    { CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 1 },
    { CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 32 },
    { CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, 1 },
    { CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 1 },
    { CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 1 },
    { CU_DEVICE_ATTRIBUTE_NUMA_ID, -1 },
    { CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, -1 },
    { CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1 },    /* hostkinds.c */
    { CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1 },
};

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init_device(ordinal);
    if (r == CUDA_SUCCESS)
        *device = ordinal;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        *count = emu_device_count();
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init_device(dev);
    if (r == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "syncguard CPU emulator");
    emu_unlock();
    return r;
}

/* Attributes of the enumeration that are not listed describe features the
 * emulator lacks: 0.  Values outside the enumeration are errors. */
static CUresult attribute_value(CUdevice_attribute attrib, CUdevice dev, int *out)
{
    if (attrib < CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    *out = 0;
    if (attrib == CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)
        *out = dev;
    for (size_t i = 0; i < sizeof attributes / sizeof *attributes; i++)
        if (attributes[i].attr == attrib)
            *out = attributes[i].value;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init_device(dev);
    if (r == CUDA_SUCCESS)
        r = attribute_value(attrib, dev, pi);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init_device(dev);
    if (r == CUDA_SUCCESS)
        *bytes = emu_total_mem();
    emu_unlock();
    return r;
}
