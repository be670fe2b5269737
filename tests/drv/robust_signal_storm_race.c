/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_storm_race: the program takes a signal every 50 us on its
 * main thread (a sampling profiler's SIGPROF: gperftools, async-profiler,
 * Scalene), and reads the pinned destination of a copy still in flight.
 * The signals interrupt every wait syncguard makes in its fault handler;
 * its waits are bounded by time, not by the number of waits, so the race
 * is still reported (a count of 100 waits was used up in 5 ms, the report
 * was never written and the program exited as clean) and the read still
 * sees the copied data.  Twin: robust_signal_storm_ok (synchronizes first:
 * silent, under the same signals).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_signal_storm_race.c:[0-9]* in main
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_signal_storm_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#define _GNU_SOURCE
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sgtest.h"

#define PERIOD_NS 50000l

static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
    (void)sig;
    ticks++;
}

/* SIGPROF every PERIOD_NS to this thread, as a profiler's timer does. */
static timer_t start_storm(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    SGT_EXPECT(sigaction(SIGPROF, &sa, NULL) == 0);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t t;
    SGT_EXPECT(timer_create(CLOCK_MONOTONIC, &ev, &t) == 0);
    struct itimerspec every = { { 0, PERIOD_NS }, { 0, PERIOD_NS } };
    SGT_EXPECT(timer_settime(t, 0, &every, NULL) == 0);
    return t;
}

int main(void)
{
    sgt_watchdog(120);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    timer_t storm = start_storm();
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN
    SGT_CHECK(cuStreamSynchronize(s)); /* the twin: the copy observed first */
#endif
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless SG_TWIN */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    timer_delete(storm);
    printf("%ld signals taken\n", (long)ticks);
    SGT_EXPECT(ticks > 0);

    sgt_free_buffers(dev, host);
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
