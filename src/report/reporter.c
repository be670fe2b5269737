/* SPDX-License-Identifier: Apache-2.0 */
/* The reporter thread. Symbolizing needs memory allocation and file access,
 * which the fault handler must not do; so the handler puts the raw race in a
 * ring slot, wakes this thread with sem_post (async-signal-safe), and waits
 * on a futex until the report is written. The wait is bounded so that a
 * reporter stuck behind a lock the faulting thread holds (a malloc arena,
 * say) delays the program but cannot hang it. Bounds are deadlines on the
 * monotonic clock, not counts of waits: a program whose signals interrupt
 * every wait (a profiler's SIGPROF at 20 kHz) would otherwise use them up
 * in milliseconds, leave its report unwritten and exit as if clean. At exit
 * the reports still pending are waited for the same way. */
#include "config.h"

#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/stats.h"
#include "report/report.h"

#define RING 16
#define REPORT_WAIT_NS 10000000000ul /* a handler's wait for its report: 10 s */
#define CLAIM_WAIT_NS 1000000000ul   /* for a free slot, 16 reports pending: 1 s */
#define STEP_NS 100000000l           /* one futex wait at most, then look again */
#define POLL_NS 1000000l             /* between looks at the ring */

/* ABANDONED: READY, but its faulting thread stopped waiting; the reporter
 * still writes it, then frees the slot itself. */
enum { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_DONE, SLOT_ABANDONED };

struct slot {
    atomic_int state;
    int suppressed; /* the reporter's answer, read once the slot is DONE */
    struct sg_race race;
};

static struct slot ring[RING];
static sem_t wake;
static atomic_int started; /* 0 no, 1 starting, 2 running */

static void *reporter_main(void *arg)
{
    (void)arg;
    /* The reporter's own calls (writes, symbolization) are syncguard's. */
    SG_INSIDE_SYNCGUARD for (;;) {
        while (sem_wait(&wake) != 0)
            ;
        for (int i = 0; i < RING; i++) {
            int st = atomic_load(&ring[i].state);
            if (st != SLOT_READY && st != SLOT_ABANDONED)
                continue;
            ring[i].suppressed = sg_report_write(&ring[i].race);
            if (atomic_exchange(&ring[i].state, SLOT_DONE) == SLOT_ABANDONED)
                atomic_store(&ring[i].state, SLOT_FREE);
            else
                syscall(SYS_futex, &ring[i].state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        }
    }
    return NULL;
}

void sg_reporter_ensure_started(void)
{
    int expected = 0;
    if (SG_LIKELY(atomic_load_explicit(&started, memory_order_relaxed) == 2) ||
        !atomic_compare_exchange_strong(&started, &expected, 1))
        return;
    sem_init(&wake, 0, 0);
    /* The reporter must never receive the program's signals. */
    sigset_t all, old;
    sigfillset(&all);
    SG_NEXT(pthread_sigmask)(SIG_SETMASK, &all, &old);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, reporter_main, NULL);
    pthread_attr_destroy(&attr);
    SG_NEXT(pthread_sigmask)(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        SG_WARN_ONCE("cannot start the reporter thread; reports will be terse\n");
        atomic_store(&started, 0);
        return;
    }
#ifdef __GLIBC__
    pthread_setname_np(t, "syncguard");
#endif
    atomic_store(&started, 2);
}

void sg_reporter_after_fork_child(void)
{
    /* Threads do not survive fork; the next guarded copy starts one. */
    atomic_store(&started, 0);
    for (int i = 0; i < RING; i++)
        atomic_store(&ring[i].state, SLOT_FREE);
}

/* Signal-safe fallback when no reporter can write the full report. */
static void write_terse(const struct sg_race *r)
{
    sg_log_warning("%s at 0x%lx (no stack: the reporter thread is unavailable)\n",
                   sg_race_kind_name(r->kind), (unsigned long)r->addr);
}

static void sleep_ns(long ns)
{
    struct timespec t = { 0, ns };
    nanosleep(&t, NULL);
}

static struct slot *claim_slot(void)
{
    unsigned long deadline = sg_now_ns() + CLAIM_WAIT_NS;
    do {
        for (int i = 0; i < RING; i++) {
            int expected = SLOT_FREE;
            if (atomic_compare_exchange_strong(&ring[i].state, &expected, SLOT_FILLING))
                return &ring[i];
        }
        sleep_ns(POLL_NS);
    } while (sg_ns_left(deadline));
    return NULL;
}

/* Until the reporter has written the slot's report, or the deadline. */
static void wait_written(struct slot *s, unsigned long deadline)
{
    for (;;) {
        int st = atomic_load(&s->state);
        long left = sg_ns_left(deadline);
        if (st == SLOT_DONE || !left)
            return;
        struct timespec step = { 0, left < STEP_NS ? left : STEP_NS };
        syscall(SYS_futex, &s->state, FUTEX_WAIT_PRIVATE, st, &step, NULL, 0);
    }
}

int sg_report_race(const struct sg_race *race)
{
    struct slot *s = atomic_load(&started) == 2 ? claim_slot() : NULL;
    if (!s) {
        write_terse(race);
        return 0;
    }
    memcpy(&s->race, race, sizeof *race);
    atomic_store(&s->state, SLOT_READY);
    sem_post(&wake);
    wait_written(s, sg_now_ns() + REPORT_WAIT_NS);
    /* If the reporter has not got to it yet, it still will, and frees the
     * slot after; else the slot is done and ours to free. */
    int ready = SLOT_READY;
    if (atomic_compare_exchange_strong(&s->state, &ready, SLOT_ABANDONED))
        return 0;
    int suppressed = s->suppressed;
    atomic_store(&s->state, SLOT_FREE);
    return suppressed;
}

/* At exit: the reports a handler stopped waiting for (or is waiting for in
 * another thread) are written before the summary counts them. Bounded like
 * a handler's wait; the exiting thread holds no lock the reporter needs. */
void sg_reporter_drain(void)
{
    if (atomic_load(&started) != 2)
        return;
    unsigned long deadline = sg_now_ns() + REPORT_WAIT_NS;
    for (int i = 0; i < RING; i++) {
        int st;
        while (((st = atomic_load(&ring[i].state)) == SLOT_READY || st == SLOT_ABANDONED) &&
               sg_ns_left(deadline))
            sleep_ns(POLL_NS);
    }
}
