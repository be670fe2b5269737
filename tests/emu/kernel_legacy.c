/* SPDX-License-Identifier: Apache-2.0 */
/* kernel_legacy.c - the launch API before CUDA 4.0: a function's block
 * shape (cuFuncSetBlockShape), dynamic shared memory (cuFuncSetSharedSize)
 * and parameter buffer (cuParamSetSize, then cuParamSeti, cuParamSetf,
 * cuParamSetv at byte offsets the program lays out as the kernel declares
 * them) are state of the function, which cuLaunch (a 1x1 grid),
 * cuLaunchGrid (on the legacy stream) and cuLaunchGridAsync launch.  The
 * launch reads the buffer at the call, as cuLaunchKernel reads its
 * `extra` buffer, so it is launched through that. */
#include "emu.h"

#include <stdlib.h>
#include <string.h>

#define LEGACY_ARGBUF 4096 /* the limit of the legacy parameter buffer */

typedef struct legacy_state {
    CUfunction f;
    unsigned bx, by, bz, shmem;
    size_t size; /* cuParamSetSize */
    unsigned char args[LEGACY_ARGBUF];
    struct legacy_state *next;
} legacy_state;

static legacy_state *states; /* per function, never freed (handles stay valid) */

/* f's state, made on first use with a 1x1x1 block (lock held). */
static legacy_state *state_of(CUfunction f)
{
    legacy_state *st = states;
    while (st && st->f != f)
        st = st->next;
    if (!st) {
        st = emu_xcalloc(1, sizeof *st);
        st->f = f, st->bx = st->by = st->bz = 1;
        st->next = states, states = st;
    }
    return st;
}

CUresult CUDAAPI cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z)
{
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (x <= 0 || y <= 0 || z <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS) {
        legacy_state *st = state_of(hfunc);
        st->bx = (unsigned)x, st->by = (unsigned)y, st->bz = (unsigned)z;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes)
{
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        state_of(hfunc)->shmem = bytes;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuParamSetSize(CUfunction hfunc, unsigned int numbytes)
{
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (numbytes > LEGACY_ARGBUF)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        state_of(hfunc)->size = numbytes;
    emu_unlock();
    return r;
}

/* Copies n bytes into f's buffer at offset (the driver keeps them). */
static CUresult param_set(CUfunction f, int offset, const void *p, size_t n)
{
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (offset < 0 || !p || (size_t)offset > LEGACY_ARGBUF || n > LEGACY_ARGBUF - (size_t)offset)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        memcpy(state_of(f)->args + offset, p, n);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuParamSeti(CUfunction hfunc, int offset, unsigned int value)
{
    return param_set(hfunc, offset, &value, sizeof value);
}

CUresult CUDAAPI cuParamSetf(CUfunction hfunc, int offset, float value)
{
    return param_set(hfunc, offset, &value, sizeof value);
}

CUresult CUDAAPI cuParamSetv(CUfunction hfunc, int offset, void *ptr, unsigned int numbytes)
{
    return param_set(hfunc, offset, ptr, numbytes);
}

/* A launch of f's current state on a grid of w x h blocks. */
static CUresult launch_grid(CUfunction f, int w, int h, CUstream s)
{
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (w <= 0 || h <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    legacy_state st = { 0 };
    if (r == CUDA_SUCCESS)
        st = *state_of(f); /* the state as it is at the call */
    emu_unlock();
    if (r != CUDA_SUCCESS)
        return r;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, st.args, CU_LAUNCH_PARAM_BUFFER_SIZE, &st.size,
                      CU_LAUNCH_PARAM_END };
    return cuLaunchKernel(f, (unsigned)w, (unsigned)h, 1, st.bx, st.by, st.bz, st.shmem, s, NULL, extra);
}

CUresult CUDAAPI cuLaunch(CUfunction f)
{
    return launch_grid(f, 1, 1, NULL);
}

CUresult CUDAAPI cuLaunchGrid(CUfunction f, int grid_width, int grid_height)
{
    return launch_grid(f, grid_width, grid_height, NULL);
}

CUresult CUDAAPI cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)
{
    return launch_grid(f, grid_width, grid_height, hStream);
}
