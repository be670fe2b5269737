/* SPDX-License-Identifier: Apache-2.0 */
/* m_order_two_threads_race: one order for the model and the driver.  Two
 * threads enqueue on one stream S: thread T records event E, the main
 * thread a device-to-host copy X.  The emulator's hook pauses T right after
 * the driver queued E (sgemu_call_after_enqueue), before syncguard's shim
 * can note it, and lets the main thread try to enqueue X meanwhile.  In the
 * driver E comes first, so synchronizing E says nothing about X: reading X's
 * buffer is a race.  (#11: the model took each operation's place after the
 * real call returned, X before E, and E seemed to cover X.)  syncguard must
 * keep X out of the driver until E's place in the model is taken; the
 * paused thread sees the main thread blocked and lets go.  Twin:
 * m_order_two_threads_ok, the other way round (X first in the driver).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_order_two_threads_race
 * SG-EMU-ONLY
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_order_two_threads_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgtest.h"

/* The emulator's hook (tests/emu/sgemu.h), looked up: a real driver has
 * none, and this program is also built against one (then it skips). */
typedef void (*after_enqueue_fn)(void (*fn)(void *), void *arg);
static after_enqueue_fn sgemu_call_after_enqueue;

static CUcontext ctx;
static CUstream s;
static CUevent e;
static CUdeviceptr dev;
static uint32_t *host;
static sgt_hold *hold;
static long main_tid;
#ifdef SG_TWIN
static long other_tid; /* the thread that records E, once it runs */
#endif
static int go, started, done; /* the other party may go; it is about to call; it returned */

/* Whether thread tid sleeps (state S: blocked, here on syncguard's lock). */
static int sleeping(long tid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] == 'S';
}

/* Runs inside the first thread's enqueue call, just after the driver queued
 * its operation: the second goes now, and is either through (the bug) or
 * blocked until this call returns (consecutive sleeping samples: it is
 * not merely passing through a short wait). */
static void CUDA_CB let_other_go(void *arg)
{
    long other = *(long *)arg;
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        sched_yield();
    for (int asleep = 0; asleep < 200 && !__atomic_load_n(&done, __ATOMIC_ACQUIRE);) {
        asleep = sleeping(other) ? asleep + 1 : 0;
        sched_yield();
    }
}

static void wait_go(void)
{
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        sched_yield();
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
}

#ifdef SG_TWIN /* m_order_two_threads_ok: X first, E second */
static void *second(void *arg)
{
    (void)arg;
    other_tid = syscall(SYS_gettid);
    SGT_CHECK(cuCtxSetCurrent(ctx));
    wait_go();
    SGT_CHECK(cuEventRecord(e, s));
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    return NULL;
}
#else /* E first, X second */
static void *first(void *arg)
{
    (void)arg;
    SGT_CHECK(cuCtxSetCurrent(ctx));
    sgemu_call_after_enqueue(let_other_go, &main_tid);
    SGT_CHECK(cuEventRecord(e, s));
    return NULL;
}
#endif

int main(void)
{
    sgemu_call_after_enqueue = (after_enqueue_fn)dlsym(RTLD_DEFAULT, "sgemu_call_after_enqueue");
    if (!sgemu_call_after_enqueue) {
        printf("SKIP: needs the emulator's hook\n");
        return 77;
    }
    ctx = sgt_start(&dev, &host);
    main_tid = syscall(SYS_gettid);
    s = sgt_stream(CU_STREAM_NON_BLOCKING);
    e = sgt_event();
    pthread_t t;
#ifdef SG_TWIN /* m_order_two_threads_ok */
    hold = sgt_hold_stream(s);
    SGT_EXPECT(pthread_create(&t, NULL, second, NULL) == 0);
    while (!other_tid)
        sched_yield();
    sgemu_call_after_enqueue(let_other_go, &other_tid);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    pthread_join(t, NULL);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e)); /* E follows X in the driver */
#else
    sgt_release(sgt_hold_stream(NULL)); /* the holds' flag page, allocated now */
    SGT_EXPECT(pthread_create(&t, NULL, first, NULL) == 0);
    wait_go();
    hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    SGT_CHECK(cuEventSynchronize(e)); /* E comes before X in the driver */
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing E");
}
