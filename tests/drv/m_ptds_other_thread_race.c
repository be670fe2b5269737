/* SPDX-License-Identifier: Apache-2.0 */
/* m_ptds_other_thread_race: per-thread default stream.  Each host thread
 * has its own:  another thread synchronizing ITS per-thread stream says
 * nothing about the copy on the main thread's one.  Twin: m_ptds_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_ptds_other_thread_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>

#include "sgtest.h"

static CUcontext ctx_of_main;

static void *sync_own_stream(void *arg)
{
    (void)arg;
    SGT_CHECK(cuCtxSetCurrent(ctx_of_main));
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));   /* its own, idle */
    return NULL;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    ctx_of_main = NULL;
    SGT_CHECK(cuCtxGetCurrent(&ctx_of_main));
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, CU_STREAM_PER_THREAD));
    pthread_t other;
    SGT_EXPECT(pthread_create(&other, NULL, sync_own_stream, NULL) == 0);
    SGT_EXPECT(pthread_join(other, NULL) == 0);
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after another thread synchronized its per-thread stream");
}
