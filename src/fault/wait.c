/* SPDX-License-Identifier: Apache-2.0 */
/* A bounded wait for a copy's event, from the fault handler. The driver
 * has no timed wait, and polling a query would never block: a waiter
 * thread blocks in cuEventSynchronize for the handler, which sleeps on a
 * futex with a timeout. When the time is up the waiter stays blocked until
 * the event completes (maybe never), and the handler goes on without it;
 * the next bounded wait takes another waiter, or polls when none is idle.
 * Waiters are started in normal context (sg_waiters_ensure), never in the
 * handler: as many idle ones as there are live gates (each thread's access
 * behind one may need its own waiter at the same moment), up to WAITERS.
 * Polling is the last resort: it never blocks in the driver, so a copy
 * whose gate opens only once the host blocks there (the emulator's hold,
 * released "when the host waits") would not complete within the bound. */
#include "config.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/common.h"
#include "base/stats.h"
#include "driver/driver.h"
#include "fault/wait.h"
#include "model/sync.h"

#define WAITERS 32

/* A waiter is taken (IDLE to BUSY) by one handler, which alone gives it
 * back (BUSY to IDLE) once it has read the answer: a waiter that made
 * itself idle on finishing could be taken by a second handler, which resets
 * done before the first one saw it (the first then waited for ever). A
 * handler whose time is up leaves it ABANDONED; then whichever of the two
 * sees both the abandonment and the answer makes it idle. */
enum { ABSENT, STARTING, IDLE, BUSY, ABANDONED };

struct waiter {
    atomic_int state;
    atomic_int request; /* 1: ev is to be waited for */
    atomic_int done;    /* 1: ev completed */
    CUevent ev;
};

static struct waiter waiters[WAITERS];
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

static void futex_wait(atomic_int *word, int value, const struct timespec *timeout)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, timeout, NULL, 0);
}

static void futex_wake(atomic_int *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *waiter_main(void *arg)
{
    struct waiter *w = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's signals are not for it */
    sg_in_syncguard = 1;
    /* Its malloc arena now, while the process has mappings to spare: the
     * driver may allocate in its wait when the program has used them up. */
    free(malloc(64 * 1024)); /* below the trim threshold: stays usable */
    atomic_store(&w->state, IDLE);
    for (;;) {
        while (!atomic_load(&w->request))
            futex_wait(&w->request, 0, NULL);
        atomic_store(&w->request, 0);
        sg_driver()->cuEventSynchronize(w->ev);
        atomic_store(&w->done, 1);
        futex_wake(&w->done);
        int abandoned = ABANDONED;
        atomic_compare_exchange_strong(&w->state, &abandoned, IDLE);
    }
    return NULL;
}

static int idle_waiters(void)
{
    int n = 0;
    for (int i = 0; i < WAITERS; i++)
        n += atomic_load(&waiters[i].state) == IDLE;
    return n;
}

/* Starts one waiter in a free slot; 0 when none is left or it failed. */
static int start_waiter(void)
{
    for (int i = 0; i < WAITERS; i++) {
        if (atomic_load(&waiters[i].state) != ABSENT)
            continue;
        pthread_t t;
        atomic_store(&waiters[i].state, STARTING);
        if (pthread_create(&t, NULL, waiter_main, &waiters[i]) != 0) {
            atomic_store(&waiters[i].state, ABSENT);
            return 0;
        }
        pthread_detach(t);
        while (atomic_load(&waiters[i].state) == STARTING)
            sched_yield(); /* until it has its arena (above) */
        return 1;
    }
    return 0;
}

void sg_waiters_ensure(void)
{
    int want = sg_gates_live();
    want = want < 1 ? 1 : want > WAITERS ? WAITERS : want;
    if (idle_waiters() >= want)
        return;
    pthread_mutex_lock(&start_lock);
    while (idle_waiters() < want && start_waiter())
        ;
    pthread_mutex_unlock(&start_lock);
}

static struct waiter *take_idle(void)
{
    for (int i = 0; i < WAITERS; i++) {
        int idle = IDLE;
        if (atomic_compare_exchange_strong(&waiters[i].state, &idle, BUSY))
            return &waiters[i];
    }
    return NULL;
}

/* No idle waiter: ask now and then (no blocking call of the driver). */
static int poll_until(CUevent ev, unsigned long deadline)
{
    const struct sg_driver *d = sg_driver();
    for (;;) {
        if (d->cuEventQuery(ev) != CUDA_ERROR_NOT_READY)
            return 1;
        long left = sg_ns_left(deadline);
        if (!left)
            return 0;
        struct timespec t = { 0, left < 1000000 ? left : 1000000 };
        nanosleep(&t, NULL);
    }
}

/* The time is up: the waiter is left to finish alone, unless it finished
 * meanwhile (then the wait did complete). */
static int give_up(struct waiter *w)
{
    atomic_store(&w->state, ABANDONED);
    if (!atomic_load(&w->done))
        return 0;
    int abandoned = ABANDONED;
    atomic_compare_exchange_strong(&w->state, &abandoned, IDLE);
    return 1;
}

int sg_wait_bounded(CUevent ev, long ms)
{
    unsigned long deadline = sg_now_ns() + (unsigned long)ms * 1000000ul;
    struct waiter *w = take_idle();
    if (!w)
        return poll_until(ev, deadline);
    w->ev = ev;
    atomic_store(&w->done, 0);
    atomic_store(&w->request, 1);
    futex_wake(&w->request);
    while (!atomic_load(&w->done)) {
        long left = sg_ns_left(deadline);
        if (!left)
            return give_up(w);
        struct timespec t = { left / 1000000000l, left % 1000000000l };
        futex_wait(&w->done, 0, &t);
    }
    atomic_store(&w->state, IDLE);
    return 1;
}
