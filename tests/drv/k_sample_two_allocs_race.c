/* SPDX-License-Identifier: Apache-2.0 */
/* k_sample_two_allocs_race: the sampled mode decides per kernel launch,
 * not per allocation it guards. Each of 6 steps launches sgt_fill2 on two
 * pinned allocations a and b (so the launch guards both) and then reads a
 * too early. With sample=2, sample_first=0 the site's launches 1, 3 and 5
 * are guarded, both allocations each time: those reads wait for their
 * launch and the first is reported. A decision per allocation alternated
 * between a and b and guarded b alone on every launch: with any even
 * sample the race on a was never reported. Twin: k_sample_two_allocs_ok.
 *
 * SG-OPTIONS: sample=2:sample_first=0:verbosity=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: ^racy reads that waited for their launch: 1 3 5$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=3,
 * SG-GREP: ^==[0-9]*==syncguard:   3 guarded, 3 sampled out: k_sample_two_allocs_race.c:[0-9]* in main$
 */
#include "sample_step.h"
#include "sgt_kernels.h"

#ifndef SG_TWIN
#define SG_TWIN 0
#endif
#define STEPS 6

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

int main(void)
{
    CUdeviceptr page;
    CUstream s = step_start(&page);
    CUfunction f = sgt_kernel("sgt_fill2"); /* before any hold: a load waits for the device */
    uint32_t *a = sgt_pinned(STEP_BYTES), *b = sgt_pinned(STEP_BYTES);
    /* By their host addresses, which unified addressing lets a kernel use. */
    CUdeviceptr pa = (CUdeviceptr)(uintptr_t)a, pb = (CUdeviceptr)(uintptr_t)b;
    unsigned int n = STEP_WORDS, v = SGT_NEW;
    void *params[] = { &pa, &pb, &n, &v };
    struct sample_log log = { "", 0 };
    for (int step = 0, k = steps; step < k; step++) {
        for (unsigned i = 0; i < STEP_WORDS; i++)
            b[i] = SGT_OLD;
        sgt_hold *h = step_begin(s, a);
        SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL)); /* the site */
        step_end(&log, h, s, a, step, !SG_TWIN); /* the racy read: a */
        log.late_wrong += step_wrong(b);
    }
    printf("racy reads that waited for their launch:%s\n", log.waited);
    SGT_CHECK(cuMemFreeHost(a));
    SGT_CHECK(cuMemFreeHost(b));
    SGT_CHECK(cuMemFree(page));
    SGT_CHECK(cuStreamDestroy(s));
    return step_verdict(&log);
}
