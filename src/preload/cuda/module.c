/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of module and library unloads: the kernel parameter layouts
 * syncguard cached (driver/kparams.c), and the parameters it saw set
 * through the pre-4.0 launch API (work/launch_legacy.c), may name other
 * kernels afterwards. */
#include "config.h"

#include "driver/kparams.h"
#include "work/kernel.h"
#include "preload/shim.h"

SG_CUDA_SHIM(cuModuleUnload, (CUmodule m))
{
    CUresult r = SG_FORWARD(cuModuleUnload, m);
    if (r == CUDA_SUCCESS)
        sg_kparams_forget(), sg_legacy_params_forget();
    return r;
}

SG_CUDA_SHIM(cuLibraryUnload, (CUlibrary l))
{
    CUresult r = SG_FORWARD(cuLibraryUnload, l);
    if (r == CUDA_SUCCESS)
        sg_kparams_forget();
    return r;
}
