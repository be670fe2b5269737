/* SPDX-License-Identifier: Apache-2.0 */
/* A bounded wait for a copy's event, from the fault handler. The driver
 * has no timed wait, and polling a query would never block: a waiter
 * thread blocks in cuEventSynchronize for the handler, which sleeps on a
 * futex with a timeout. When the time is up the waiter stays blocked until
 * the event completes (maybe never), and the handler goes on without it;
 * the next bounded wait takes another waiter, or polls when none is idle.
 * Waiters are started in normal context (sg_waiters_ensure), never in the
 * handler. */
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

#define WAITERS 4

enum { ABSENT, STARTING, IDLE, BUSY };

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
        atomic_store(&w->state, IDLE);
    }
    return NULL;
}

void sg_waiters_ensure(void)
{
    for (int i = 0; i < WAITERS; i++)
        if (atomic_load(&waiters[i].state) == IDLE)
            return;
    pthread_mutex_lock(&start_lock);
    for (int i = 0; i < WAITERS; i++) {
        if (atomic_load(&waiters[i].state) != ABSENT)
            continue;
        pthread_t t;
        atomic_store(&waiters[i].state, STARTING);
        if (pthread_create(&t, NULL, waiter_main, &waiters[i]) != 0) {
            atomic_store(&waiters[i].state, ABSENT);
            break;
        }
        pthread_detach(t);
        while (atomic_load(&waiters[i].state) == STARTING)
            sched_yield(); /* until it has its arena (above) */
        break;
    }
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

static long left_ns(unsigned long deadline)
{
    unsigned long now = sg_now_ns();
    return now >= deadline ? 0 : (long)(deadline - now);
}

/* No idle waiter: ask now and then (no blocking call of the driver). */
static int poll_until(CUevent ev, unsigned long deadline)
{
    const struct sg_driver *d = sg_driver();
    for (;;) {
        if (d->cuEventQuery(ev) != CUDA_ERROR_NOT_READY)
            return 1;
        long left = left_ns(deadline);
        if (!left)
            return 0;
        struct timespec t = { 0, left < 1000000 ? left : 1000000 };
        nanosleep(&t, NULL);
    }
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
        long left = left_ns(deadline);
        if (!left)
            return 0;
        struct timespec t = { left / 1000000000l, left % 1000000000l };
        futex_wait(&w->done, 0, &t);
    }
    return 1;
}
