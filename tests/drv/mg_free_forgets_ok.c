/* SPDX-License-Identifier: Apache-2.0 */
/* mg_free_forgets_ok: a managed allocation written by a kernel, observed
 * complete and freed, leaves syncguard's table with cuMemFree: the host
 * memory mapped at its address afterwards is ordinary memory, and neither
 * a new managed allocation there nor the program's own use of it is
 * reported or guarded.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "mg_managed.h"
#include "sgt_kernels.h"
#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUfunction f = sgt_kernel("sgt_fill");
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    unsigned wrong = 0;
    for (int round = 0; round < 3; round++) {
        CUdeviceptr m;
        uint32_t *words = mg_managed_words(&m, SGT_OLD);
        sgt_launch_fill(f, s, m, SGT_WORDS, SGT_NEW);
        SGT_CHECK(cuStreamSynchronize(s));
        wrong += SGT_COUNT_WRONG(words, SGT_WORDS, SGT_NEW);
        SGT_CHECK(cuMemFree(m));
    }
    return sgt_verdict(wrong, "the managed words of three allocations");
}
