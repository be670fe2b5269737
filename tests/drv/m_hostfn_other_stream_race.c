/* m_hostfn_other_stream_race: host functions.  The host function runs on
 * ANOTHER non-blocking stream: it runs at once and its flag says nothing
 * about the copy.  Twin: m_hostfn_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_hostfn_other_stream_race
 */
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
    CUstream a, b;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuLaunchHostFunc(b, set_done, NULL));
    sgt_release_when_host_waits(hold);
    wait_done();
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after a host function on another stream ran");
}
