/* m_hostfn_other_stream_race: host functions.  The host function runs on
 * ANOTHER non-blocking stream: it runs at once and its flag says nothing
 * about the copy.  Twin: m_hostfn_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_hostfn_other_stream_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_hostfn_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>

#include "sgtest.h"

static int done;

static void CUDA_CB set_done(void *arg)
{
    (void)arg;
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

/* Spins until the host function ran (the watchdog bounds it). */
static void wait_done(void)
{
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
        sched_yield();
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
#ifdef SG_TWIN /* m_hostfn_ok */
    CUstream a;
#else
    CUstream a, b;
#endif
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
#ifdef SG_TWIN /* m_hostfn_ok */
#else
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
#endif
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_hostfn_ok */
    SGT_CHECK(cuLaunchHostFunc(a, set_done, NULL));
    sgt_release(hold);
#else
    SGT_CHECK(cuLaunchHostFunc(b, set_done, NULL));
    sgt_release_when_host_waits(hold);
#endif
    wait_done();
#ifdef SG_TWIN /* m_hostfn_ok */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the host function on the copy's stream ran");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a host function on another stream ran");
#endif
}
