/* SPDX-License-Identifier: Apache-2.0 */
/* hostwait.c - sgemu_release_on_host_wait, the hook that lets a test hold a
 * stream and still have the program's own blocking call release it. */
#include "emu.h"
#include "sgemu.h"

#include <signal.h>
#include <stdlib.h>

typedef struct release {
    uintptr_t flag;
    uint32_t value;
    struct release *next;
} release;

static release *pending, **pending_tail = &pending;

typedef struct callback {
    void (*fn)(void *);
    void *arg;
    struct callback *next;
} callback;

static callback *callbacks;

/* Called by a test directly, not through a wrapped entry point: syncguard
 * does not count it as a call into the driver, so a signal handler that
 * faults on a guarded page meanwhile may have the fault handler ask the
 * emulator (cuEventQuery) while this thread holds its lock, and wait for
 * itself for ever (robust_signal_neighbour_storm_*: its SIGUSR1 storm hung
 * about one run in eight). Its signals wait until the lock is given back. */
void sgemu_call_on_host_wait(void (*fn)(void *), void *arg)
{
    callback *c = emu_xmalloc(sizeof *c);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    emu_lock();
    *c = (callback){ fn, arg, callbacks };
    callbacks = c;
    emu_unlock();
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Called with the emulator's lock held; each call-back runs without it,
 * as a program's code runs while a real driver sleeps in a wait: it may
 * call the driver, or leave the wait by siglongjmp from a signal handler. */
static void fire_callbacks(void)
{
    while (callbacks) {
        callback *c = callbacks;
        callbacks = c->next;
        emu_unlock();
        c->fn(c->arg);
        free(c);
        emu_lock();
    }
}

void sgemu_release_on_host_wait(CUdeviceptr flag, cuuint32_t value)
{
    release *r = emu_xmalloc(sizeof *r);
    *r = (release){ (uintptr_t)flag, value, NULL };
    emu_lock();
    *pending_tail = r;
    pending_tail = &r->next;
    emu_unlock();
}

void emu_fire_host_wait_releases(void)
{
    fire_callbacks();
    if (!pending)
        return;
    while (pending) {
        release *r = pending;
        pending = r->next;
        bool host = emu_mem_where(r->flag, sizeof r->value) != EMU_DEVICE;
        emu_dev_store(r->flag, r->value, sizeof r->value, host);
        free(r);
    }
    pending_tail = &pending;
    emu_broadcast();            /* streams polling the flags look again */
}

/* sgemu_call_after_enqueue: the registration is handed to the enqueuing
 * thread under the lock (emu_enqueue), and run by it once it gives the
 * lock back (emu_unlock). */
static callback after_enqueue;
static __thread callback after_enqueue_mine;

void sgemu_call_after_enqueue(void (*fn)(void *), void *arg)
{
    emu_lock();
    after_enqueue = (callback){ fn, arg, NULL };
    emu_unlock();
}

void emu_note_enqueued(void)
{
    if (after_enqueue.fn) {
        after_enqueue_mine = after_enqueue;
        after_enqueue.fn = NULL;
    }
}

void emu_run_after_enqueue(void)
{
    if (!after_enqueue_mine.fn)
        return;
    callback c = after_enqueue_mine;
    after_enqueue_mine.fn = NULL;
    c.fn(c.arg);
}
