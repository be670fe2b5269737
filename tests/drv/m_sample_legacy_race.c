/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_legacy_race: a sampled-out copy still orders its stream by the
 * legacy default stream's rules.  With sample=2, sample_first=1: a copy on
 * the legacy stream (its site's first: guarded), then a copy on stream B
 * at a site whose first copy came earlier, so this one is sampled out.
 * B is NON-BLOCKING here: its copy does not wait for the legacy stream,
 * and synchronizing B says nothing about the legacy copy; reading it is
 * the race.  Twin m_sample_legacy_ok makes B blocking: the sampled-out
 * copy waits for the legacy copy, so synchronizing B observes it
 * (silent), which the model knows only if the sampled-out copy took its
 * place on B.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sample_legacy_race
 * SG-GREP: ^==[0-9]*==syncguard:   1 guarded, 1 sampled out: m_sample_legacy_race.c:[0-9]* in step$
 * SG-GREP: ^==[0-9]*==syncguard:   1 guarded, 0 sampled out: m_sample_legacy_race.c:[0-9]* in step$
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

static CUdeviceptr dev;
static uint32_t *host, *side;
static CUstream b;
static sgt_hold *hold;
static volatile int steps = 2; /* not a constant: step() is called from one place */

/* Step 0: B's site makes its first copy (guarded).  Step 1: the legacy
 * copy behind a hold, then B's site's second copy (sampled out).  The
 * copy on B is one call: a site is a native stack, and a compiler that
 * duplicated the call would make two sites of it. */
static __attribute__((noinline)) void step(int k)
{
    if (k == 1) {
        hold = sgt_hold_stream(NULL); /* the legacy stream */
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    }
    SGT_CHECK(cuMemcpyDtoHAsync(side, dev, 4096, b)); /* B's site */
}

int main(void)
{
    sgt_start(&dev, &host);
    side = sgt_pinned(4096);
#ifdef SG_TWIN /* m_sample_legacy_ok */
    b = sgt_stream(CU_STREAM_DEFAULT);
#else
    b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    for (int k = 0, n = steps; k < n; k++)
        step(k);
#ifdef SG_TWIN /* m_sample_legacy_ok: B's copy waits for the legacy copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
#else
    SGT_CHECK(cuStreamSynchronize(b)); /* B's copy does not wait */
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW),
                       "after cuStreamSynchronize(B) following a sampled-out copy on B");
}
