/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_sites_race: two enqueue sites sampled apart. Site A copies on
 * each of 9 steps, site B on the even ones; with sample=3, sample_first=1
 * each site guards its own copies 0, 3, 6, ...: A's at steps 0, 3, 6 and
 * B's (its copies 0 to 4 at steps 0, 2, 4, 6, 8) at steps 0 and 6. One
 * counter for both would guard other steps. Every read is early.
 *
 * SG-OPTIONS: sample=3:sample_first=1:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^site A: racy reads that waited for their copy: 0 3 6$
 * SG-GREP: ^site B: racy reads that waited for their copy: 0 6$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=9,
 * SG-GREP: ^==[0-9]*==syncguard:   3 guarded, 6 sampled out: d2h_sample_sites_race.c:[0-9]* in main$
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 3 sampled out: d2h_sample_sites_race.c:[0-9]* in main$
 */
#include "sample_step.h"

#define STEPS 9

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

int main(void)
{
    CUdeviceptr dev;
    CUstream s = step_start(&dev);
    uint32_t *a = sgt_pinned(STEP_BYTES), *b = sgt_pinned(STEP_BYTES);
    struct sample_log la = { "", 0 }, lb = { "", 0 };
    for (int step = 0, n = steps; step < n; step++) {
        sgt_hold *h = step_begin(s, a);
        SGT_CHECK(cuMemcpyDtoHAsync(a, dev, STEP_BYTES, s)); /* site A */
        step_end(&la, h, s, a, step, 1);
        if (step % 2)
            continue;
        h = step_begin(s, b);
        SGT_CHECK(cuMemcpyDtoHAsync(b, dev, STEP_BYTES, s)); /* site B */
        step_end(&lb, h, s, b, step, 1);
    }
    printf("site A: racy reads that waited for their copy:%s\n", la.waited);
    printf("site B: racy reads that waited for their copy:%s\n", lb.waited);
    SGT_CHECK(cuMemFreeHost(a));
    SGT_CHECK(cuMemFreeHost(b));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    la.late_wrong += lb.late_wrong;
    return step_verdict(&la);
}
