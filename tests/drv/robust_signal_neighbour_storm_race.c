/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_neighbour_storm_race: a SIGUSR1 every 50 us on the main
 * thread while a copy is held (from the moment the thread blocks in the
 * driver until the helper releases the copy), whose handler counts in two words on the page of a copy in
 * flight, outside the copy's bytes (its neighbours): one with plain moves
 * (syncguard emulates them), one with an add to memory (single-stepped,
 * x86-64; plain moves elsewhere).  Each of ITERATIONS copies is held in
 * flight until the main thread blocks in the driver (the emulator's
 * sgemu_call_on_host_wait says when; on a GPU from the start) and the
 * handler has run STORM_TICKS more times (a helper thread releases it), so
 * the signals land while the main thread waits for the copy in the driver:
 * here syncguard's own wait after the program's early read of the copy
 * (reported), in the twin the program's cuStreamSynchronize.  The handler's faults then come while the thread is
 * inside a call into the driver, where syncguard must neither call the
 * driver nor wait: it used to, once the handler's faults in a row made the
 * page one to settle (cuEventQuery), and the emulator's condition
 * variable, whose wait the signal had interrupted, hung the process on the
 * first copy.  Every iteration must complete, every read see the copied
 * data, and each count equal the signals taken (no access lost or done
 * twice).  Twin: robust_signal_neighbour_storm_ok (synchronizes first:
 * silent).
 *
 * SG-EXPECT: early-host-read
 * SG-NO-QEMU: qemu-user 7.2 hangs it (every thread in a futex wait, the timer's signals no longer delivered: CI run of 2026-12-03); qemu delivers a timer's signals some 40 times a second, not every 50 us
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_signal_neighbour_storm_race.c:[0-9]* in main
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_signal_neighbour_storm_ok.c (the lines under #ifdef SG_TWIN are
 * the twin's). */
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sgt_robust.h"

#define PERIOD_NS 50000l
#define ITERATIONS 40
#define STORM_TICKS 16 /* signals per copy in flight: past page_steps (8) */
#define COPY_WORDS 64u /* the copy: the first 256 bytes of the page */

static volatile uint32_t *plain_count; /* neighbours of the copy, on its page */
static uint32_t *stepped_count;
static atomic_long ticks;
static atomic_long release_at; /* the tick at which the helper releases the copy */
static sem_t release_due;

static void on_tick(int sig)
{
    (void)sig;
    *plain_count = *plain_count + 1;
#if defined(__x86_64__)
    __asm__ volatile("addl $1, %0" : "+m"(*stepped_count));
#else
    *(volatile uint32_t *)stepped_count = *(volatile uint32_t *)stepped_count + 1;
#endif
    if (atomic_fetch_add(&ticks, 1) + 1 == atomic_load(&release_at))
        sem_post(&release_due); /* async-signal-safe */
}

static timer_t storm;

/* The storm blows only while a copy is held: a handler slower than
 * PERIOD_NS (a loaded machine, qemu) would otherwise take every cycle of
 * the main thread outside the waits too, and no iteration would end. */
static void storm_blow(int on)
{
    struct itimerspec every = { { 0, on ? PERIOD_NS : 0 }, { 0, on ? PERIOD_NS : 0 } };
    timer_settime(storm, 0, &every, NULL); /* async-signal-safe */
}

/* A disarmed timer that sends SIGUSR1 to this thread. */
static timer_t create_storm(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    SGT_EXPECT(sigaction(SIGUSR1, &sa, NULL) == 0);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGUSR1;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t t;
    SGT_EXPECT(timer_create(CLOCK_MONOTONIC, &ev, &t) == 0);
    return t;
}

/* The helper: once the handler has run STORM_TICKS more times since the
 * main thread blocked in the driver, calms the storm and releases the hold
 * it is given. */
static sgt_hold *_Atomic to_release;

/* tests/emu/sgemu.h's hook, looked up at run time: a real driver has none. */
typedef void (*call_on_host_wait_fn)(void (*fn)(void *), void *arg);

static void host_blocks(void *arg)
{
    (void)arg;
    atomic_store(&release_at, atomic_load(&ticks) + STORM_TICKS);
    storm_blow(1);
}

static void *releaser(void *arg)
{
    (void)arg;
    for (;;) {
        while (sem_wait(&release_due) != 0)
            ;
        storm_blow(0);
        sgt_release(atomic_exchange(&to_release, NULL));
    }
    return NULL;
}

int main(void)
{
    sgt_watchdog(120);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev = sgt_device_words(COPY_WORDS, SGT_NEW);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *raw = sgt_pinned(3 * page);
    uint32_t *copy = (uint32_t *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    plain_count = copy + 512;   /* byte 2048 of the page */
    stepped_count = copy + 513; /* byte 2052 */
    *plain_count = 0;
    *stepped_count = 0;
    atomic_store(&release_at, LONG_MAX);
    SGT_EXPECT(sem_init(&release_due, 0, 0) == 0);
    pthread_t helper;
    SGT_EXPECT(pthread_create(&helper, NULL, releaser, NULL) == 0);

    call_on_host_wait_fn on_host_wait =
        (call_on_host_wait_fn)(void (*)(void))dlsym(RTLD_DEFAULT, "sgemu_call_on_host_wait");
    storm = create_storm();
    unsigned early = 0, late = 0;
    for (int i = 0; i < ITERATIONS; i++) {
        for (unsigned w = 0; w < COPY_WORDS; w++)
            copy[w] = SGT_OLD;
        sgt_hold *hold = sgt_hold_stream_in_graph(s);
        SGT_CHECK(cuMemcpyDtoHAsync(copy, dev, COPY_WORDS * sizeof(uint32_t), s));
        atomic_store(&release_at, LONG_MAX);
        atomic_store(&to_release, hold);
        if (on_host_wait)
            on_host_wait(host_blocks, NULL);
        else
            host_blocks(NULL);
#ifdef SG_TWIN
        SGT_CHECK(cuStreamSynchronize(s)); /* the twin: the copy observed first */
#endif
        early += SGT_COUNT_WRONG(copy, COPY_WORDS, SGT_NEW); /* the race, unless SG_TWIN */
        SGT_CHECK(cuStreamSynchronize(s));
        late += SGT_COUNT_WRONG(copy, COPY_WORDS, SGT_NEW);
    }
    timer_delete(storm);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* one still pending stays so */
    long taken = atomic_load(&ticks);
    printf("%d iterations, %ld signals taken; counts: plain %u, stepped %u\n", ITERATIONS, taken,
           *plain_count, *stepped_count);
    SGT_EXPECT(taken >= (long)ITERATIONS * STORM_TICKS);
    SGT_EXPECT(*plain_count == (uint32_t)taken);
    SGT_EXPECT(*stepped_count == (uint32_t)taken);

    SGT_CHECK(cuMemFreeHost(raw));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    printf("early reads: %u words wrong; after synchronizing: %u\n", early, late);
    return sgt_check_line(early == 0 && late == 0);
}
