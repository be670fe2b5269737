/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_stream_race: the sampled mode keeps the model exact.  With
 * sample=2, sample_first=1, four copies from one site onto one held
 * stream (a page each) are guarded, sampled out, guarded, sampled out.
 * Reading copy 2's page, enqueued after the sampled-out copy 1,
 * before anything says the stream is done is the one race; the read waits
 * and sees the copied data.  Twin m_sample_stream_ok synchronizes the
 * stream first: silent, every page right (the sampled-out copies took
 * their places on the stream, so the guarded ones after them are released
 * by the synchronize).
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^==[0-9]*==syncguard: 1 race reported .1 early-host-read, .*, 0 repeats not shown, 0 suppressed; 2 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 2 sampled out: m_sample_stream_race.c:[0-9]* in main$
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define COPIES 4 /* SGT_WORDS words in all */
#define PAGE_WORDS 1024u
#define PAGE_BYTES (PAGE_WORDS * sizeof(uint32_t))

static volatile int copies = COPIES; /* not a constant: the loop stays one site */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(PAGE_WORDS, SGT_NEW);
    uint32_t *host = sgt_pinned(COPIES * PAGE_BYTES);
    for (unsigned i = 0; i < COPIES * PAGE_WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    for (int k = 0, n = copies; k < n; k++)
        SGT_CHECK(cuMemcpyDtoHAsync(host + k * PAGE_WORDS, dev, PAGE_BYTES, s)); /* one site */
    sgt_release_when_host_waits(hold);
    unsigned early = 0;
#ifndef SG_TWIN
    /* The race: copy 2 (guarded) may still be in flight. */
    early = SGT_COUNT_WRONG(host + 2 * PAGE_WORDS, PAGE_WORDS, SGT_NEW);
#endif
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_race_verdict(early, SGT_COUNT_WRONG(host, COPIES * PAGE_WORDS, SGT_NEW),
                            "after cuStreamSynchronize");
}
