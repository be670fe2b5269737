/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_stream_race: the sampled mode keeps the model exact.  With
 * sample=2, sample_first=1, six copies from one site onto one held stream
 * (a page each) are guarded, sampled out, guarded, ... (copies 0, 2 and 4
 * guarded).  Reading copy 4's page, enqueued after the sampled-out copy 3,
 * before anything says the stream is done is the one race; the read waits
 * and sees the copied data.  Twin m_sample_stream_ok synchronizes the
 * stream first: silent, every page right (the sampled-out copies took
 * their places on the stream, so the guarded ones after them are released
 * by the synchronize).
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^==[0-9]*==syncguard: 1 race reported .1 early-host-read, .*, 0 repeats not shown, 0 suppressed; 3 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard:   3 guarded, 3 sampled out: m_sample_stream_race.c:[0-9]* in main$
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define COPIES 6
#define PAGE_WORDS 1024u
#define PAGE_BYTES (PAGE_WORDS * sizeof(uint32_t))

static volatile int copies = COPIES; /* not a constant: the loop stays one site */

static unsigned wrong_words(const volatile uint32_t *h, unsigned n)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != SGT_NEW;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, PAGE_BYTES));
    SGT_CHECK(cuMemsetD32(dev, SGT_NEW, PAGE_WORDS));
    SGT_CHECK(cuCtxSynchronize());
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, COPIES * PAGE_BYTES));
    for (unsigned i = 0; i < COPIES * PAGE_WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    for (int k = 0, n = copies; k < n; k++)
        SGT_CHECK(cuMemcpyDtoHAsync(host + k * PAGE_WORDS, dev, PAGE_BYTES, s)); /* one site */
    sgt_release_when_host_waits(hold);
    unsigned early = 0;
#ifndef SG_TWIN
    /* The race: copy 4 (guarded) may still be in flight. */
    early = wrong_words(host + 4 * PAGE_WORDS, PAGE_WORDS);
#endif
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = wrong_words(host, COPIES * PAGE_WORDS);
    printf("early read: %u words wrong; after cuStreamSynchronize: %u\n", early, late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (early || late) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
