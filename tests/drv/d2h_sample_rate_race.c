/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_rate_race: sample=3, sample_first=2, and one enqueue site whose
 * copy the host reads too early on every one of 12 steps. The site's first
 * two copies are guarded, then the last of each run of three: copies 0, 1,
 * 4, 7 and 10. The race of the very first copy is reported; exactly those
 * five reads wait for their copy (the four later ones are repeats of the
 * same race), the seven others are sampled out: counted, in the stats and
 * in the summary's line for the site.  d2h_sample_bound_race starts the
 * race later.
 *
 * SG-OPTIONS: sample=3:sample_first=2:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^racy reads that waited for their copy: 0 1 4 7 10$
 * SG-GREP: ^==[0-9]*==syncguard: 1 race reported .1 early-host-read, .*, 4 repeats not shown, 0 suppressed; 5 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard: stats: mprotect_calls=10, pages_guarded=5, faults_race=5,
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=7,
 * SG-GREP: ^==[0-9]*==syncguard: sampled mode: sample=3, sample_first=2;
 * SG-GREP: ^==[0-9]*==syncguard:   5 guarded, 7 sampled out: d2h_sample_rate_race.c:[0-9]* in main$
 */
#include "sample_step.h"

#ifndef RACE_FROM
#define RACE_FROM 0 /* the first step whose read is early */
#endif
#define STEPS 12

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

int main(void)
{
    CUdeviceptr dev;
    CUstream s = step_start(&dev);
    uint32_t *host = sgt_pinned(STEP_BYTES);
    struct sample_log log = { "", 0 };
    for (int step = 0, n = steps; step < n; step++) {
        sgt_hold *h = step_begin(s, host);
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, STEP_BYTES, s)); /* the site */
        step_end(&log, h, s, host, step, step >= RACE_FROM);
    }
    printf("racy reads that waited for their copy:%s\n", log.waited);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return step_verdict(&log);
}
