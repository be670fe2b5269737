/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the launch API before CUDA 4.0 (work/launch_legacy.c): the
 * parameter calls are followed so that a launch can be read like any
 * other; cuLaunch and cuLaunchGrid launch on the legacy stream,
 * cuLaunchGridAsync on the stream it names. (The block shape and shared
 * memory size matter to no host memory.) */
#include "config.h"

/* These entry points are deprecated; their shims name them. */
#define CUDA_ENABLE_DEPRECATED 1

#include "work/kernel.h"
#include "preload/shim.h"

SG_CUDA_SHIM(cuParamSetSize, (CUfunction f, unsigned int numbytes))
{
    CUresult r = SG_FORWARD(cuParamSetSize, f, numbytes);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_legacy_param_size(f, numbytes);
    return r;
}

#define PARAM_SET(symbol, T)                                                    \
    SG_CUDA_SHIM(symbol, (CUfunction f, int offset, T value))                   \
    {                                                                           \
        CUresult r = SG_FORWARD(symbol, f, offset, value);                      \
        if (r == CUDA_SUCCESS && SG_ENTER())                                    \
            sg_legacy_param_set(f, offset, &value, sizeof value);               \
        return r;                                                               \
    }

PARAM_SET(cuParamSeti, unsigned int)
PARAM_SET(cuParamSetf, float)

SG_CUDA_SHIM(cuParamSetv, (CUfunction f, int offset, void *ptr, unsigned int numbytes))
{
    CUresult r = SG_FORWARD(cuParamSetv, f, offset, ptr, numbytes);
    if (r == CUDA_SUCCESS && ptr && SG_ENTER())
        sg_legacy_param_set(f, offset, ptr, numbytes);
    return r;
}

#define LEGACY_LAUNCH(symbol, api, stream, PARAMS, ...)                         \
    SG_CUDA_SHIM(symbol, PARAMS)                                                \
    {                                                                           \
        SG_IN_ORDER();                                                          \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                           \
        if (r == CUDA_SUCCESS && SG_ENTER())                                    \
            sg_legacy_launched(api, f, stream);                                 \
        return r;                                                               \
    }

LEGACY_LAUNCH(cuLaunch, "cuLaunch", NULL, (CUfunction f), f)
LEGACY_LAUNCH(cuLaunchGrid, "cuLaunchGrid", NULL, (CUfunction f, int w, int h), f, w, h)
LEGACY_LAUNCH(cuLaunchGridAsync, "cuLaunchGridAsync", s, (CUfunction f, int w, int h, CUstream s), f, w,
              h, s)
