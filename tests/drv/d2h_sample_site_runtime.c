/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_site_runtime: the sampled mode's summary names an enqueue
 * site by the program's own frame, not the runtime's. The copy of each of
 * 3 steps is enqueued for main by libcudart_sgtest.so (lib/cudart_sgtest.c),
 * a library named like the CUDA runtime, whose frame is the innermost of
 * the enqueue stack: the site's line must name main's line instead
 * (report/t-sample-json.py checks the JSON summary's "where" too). No
 * early read: silent.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 1 sampled out: d2h_sample_site_runtime.c:[0-9]* in main$
 * SG-NOGREP: cudart_sgtest
 * SG-LINK: -L@TMP@ -lcudart_sgtest -Wl,-rpath,@TMP@
 */
#include "cudart_sgtest.h"
#include "sample_step.h"

#define STEPS 3

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

int main(void)
{
    CUdeviceptr dev;
    CUstream s = step_start(&dev);
    uint32_t *host = sgt_pinned(STEP_BYTES);
    struct sample_log log = { "", 0 };
    for (int step = 0, n = steps; step < n; step++) {
        sgt_hold *h = step_begin(s, host);
        SGT_CHECK(sgt_rt_copy_dtoh_async(host, dev, STEP_BYTES, s)); /* the site */
        step_end(&log, h, s, host, step, 0);
    }
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return step_verdict(&log);
}
