/* SPDX-License-Identifier: Apache-2.0 */
/* A step of the sampled-mode tests (d2h_sample_*, k_sample_*): the caller
 * holds the stream and enqueues one copy (or launch) into host (the site
 * it wants counted); step_end then reads the destination before anything
 * says the copy is done (the race), synchronizes the stream and checks the
 * data. Under syncguard a guarded copy makes the early read wait for it
 * (and is reported), so its read sees the copied data; a sampled-out
 * copy's early read sees the old data. Which steps waited is what the
 * tests check. Holds keep the copy pending until the host waits: no
 * timing. Every helper is static inline: a test that uses only some of
 * them gets no -Wunused-function warning. */
#ifndef SAMPLE_STEP_H
#define SAMPLE_STEP_H

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sgtest.h"

#define STEP_WORDS 1024u /* one page */
#define STEP_BYTES (STEP_WORDS * sizeof(uint32_t))

struct sample_log {
    char waited[512]; /* " 0 3 6": the steps whose early read waited */
    unsigned late_wrong;
};

static inline unsigned step_wrong(const uint32_t *h)
{
    return SGT_COUNT_WRONG(h, STEP_WORDS, SGT_NEW);
}

/* Before the copy: the old contents, and a hold on s. */
static inline sgt_hold *step_begin(CUstream s, uint32_t *host)
{
    for (unsigned i = 0; i < STEP_WORDS; i++)
        host[i] = SGT_OLD;
    return sgt_hold_stream(s);
}

/* After the copy of step `step`: the racy read (when racy), then the
 * synchronization. */
static inline void step_end(struct sample_log *log, sgt_hold *h, CUstream s,
                            const uint32_t *host, int step, int racy)
{
    sgt_release_when_host_waits(h);
    if (racy && step_wrong(host) == 0) {
        size_t n = strlen(log->waited);
        snprintf(log->waited + n, sizeof log->waited - n, " %d", step);
    }
    SGT_CHECK(cuStreamSynchronize(s));
    log->late_wrong += step_wrong(host);
}

/* Each program's start: a non-blocking stream, and a page of device
 * memory holding SGT_NEW. */
static inline CUstream step_start(CUdeviceptr *dev)
{
    sgt_watchdog(60);
    sgt_init();
    *dev = sgt_device_words(STEP_WORDS, SGT_NEW);
    return sgt_stream(CU_STREAM_NON_BLOCKING);
}

static inline int step_verdict(const struct sample_log *log)
{
    if (log->late_wrong) {
        printf("check: MISMATCH %u words wrong after cuStreamSynchronize\n", log->late_wrong);
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

#endif
