/* SPDX-License-Identifier: Apache-2.0 */
/* k_undecodable_verbose: a driver that cannot say where a kernel's
 * parameters lie (the emulator with SGEMU_NO_PARAM_INFO=1, as a driver
 * older than CUDA 12.4 or a handle it does not answer for).  syncguard
 * must not guess: nothing is guarded, and at verbosity 1 it says so, once
 * for the kernel however often it is launched.  The program itself
 * synchronizes before reading.
 *
 * SG-EMU-ONLY
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: cannot decode the parameters of kernel sgt_fill .cuFuncGetParamInfo does not answer for it
 */
#include <stdio.h>
#include <stdlib.h>

#include "k_launch.h"

/* The launch entry point; k_launch_grid_undecodable_verbose builds this
 * program with another. */
#ifndef K_HOW
#define K_HOW K_LAUNCH
#endif

int main(void)
{
    setenv("SGEMU_NO_PARAM_INFO", "1", 1);
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    k_fill(K_HOW, s, (CUdeviceptr)(uintptr_t)host, SGT_OLD);
    k_fill(K_HOW, s, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuStreamSynchronize");
}
