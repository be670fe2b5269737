/* m_callback_ok: stream callbacks.  Like m_hostfn_ok with
 * cuStreamAddCallback: the callback runs after the copy completed.  Twin:
 * m_hostfn_other_stream_race.
 *
 * SG-EXPECT: silent
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

static void CUDA_CB callback(CUstream s, CUresult status, void *arg)
{
    (void)s;
    if (status == CUDA_SUCCESS)
        set_done(arg);
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuStreamAddCallback(a, callback, NULL, 0));
    sgt_release(hold);
    wait_done();
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the callback on the copy's stream ran");
}
