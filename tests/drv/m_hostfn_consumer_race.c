/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_consumer_race: a host function reads what a device-to-host copy
 * delivered.  Here it runs on ANOTHER non-blocking stream, not ordered with
 * the copy: its read races with it, is reported, and sees the copied data
 * once syncguard let it through.  Twin: m_hostfn_consumer_ok, a consumer
 * host function between two device-to-host copies into one buffer on one
 * stream (#11: this hung): the first copy is complete when it starts, the
 * second cannot start before it returns.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_hostfn_consumer_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_hostfn_consumer_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define SECOND 0x2222abcdu /* what the second copy delivers */

static uint32_t *host;
static unsigned consumer_wrong = ~0u;

static void CUDA_CB consume(void *arg)
{
    (void)arg;
    consumer_wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_set_done(NULL);
}

int main(void)
{
    CUdeviceptr dev;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* m_hostfn_consumer_ok */
    CUdeviceptr dev2 = sgt_device_words(SGT_WORDS, SECOND);
#endif
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_hostfn_consumer_ok */
    SGT_CHECK(cuLaunchHostFunc(a, consume, NULL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev2, SGT_BYTES, a));
    sgt_release(hold);
    const uint32_t last = SECOND;
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuLaunchHostFunc(b, consume, NULL));
    const uint32_t last = SGT_NEW;
#endif
    sgt_wait_done();
    SGT_CHECK(cuStreamSynchronize(a));
    printf("the consumer: %u of %u words wrong\n", consumer_wrong, SGT_WORDS);
    if (consumer_wrong)
        return sgt_verdict(consumer_wrong, "the host function's read");
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, last), "after the stream");
}
