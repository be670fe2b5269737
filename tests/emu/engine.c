/* SPDX-License-Identifier: Apache-2.0 */
/* engine.c - stream queues, dependencies, worker threads and host waits.
 *
 * Each stream runs its operations in order on its own worker thread, which
 * is started with the first operation.  An operation starts once every
 * dependency (work of other streams it must follow) is done; a wait-value
 * operation also polls memory, since host stores to a flag announce
 * nothing.
 */
#include "emu.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* How often a blocked wait-value operation looks at its flag again. */
#define EMU_POLL_NS 200000L

void *emu_op_new(const emu_op_class *cls, size_t size)
{
    emu_op *op = emu_xcalloc(1, size);
    op->cls = cls;
    op->size = size;
    return op;
}

static void op_free(emu_op *op)
{
    emu_deps_clear(&op->deps);
    if (op->cls->destroy)
        op->cls->destroy(op);
    free(op);
}

void emu_op_discard(emu_op *op)
{
    op_free(op);
}

emu_op *emu_op_clone(const emu_op *op)
{
    emu_op *c = emu_xmalloc(op->size);
    memcpy(c, op, op->size);
    c->next = NULL;
    c->stream = NULL;
    c->seq = 0;
    c->deps = (emu_deps){ 0 };
    if (c->cls->copied)
        c->cls->copied(c);
    return c;
}

/* ---- dependencies -------------------------------------------------------- */

void emu_deps_add(emu_deps *d, CUstream s, uint64_t seq)
{
    if (s->completed >= seq)
        return;                 /* already done: nothing to wait for */
    for (size_t i = 0; i < d->n; i++) {
        if (d->v[i].s == s) {
            if (d->v[i].seq < seq)
                d->v[i].seq = seq;
            return;
        }
    }
    d->v = emu_grow(d->v, d->n, &d->cap, sizeof *d->v);
    emu_stream_ref(s);          /* the stream must outlive our look at it */
    d->v[d->n++] = (emu_dep){ s, seq };
}

void emu_deps_clear(emu_deps *d)
{
    for (size_t i = 0; i < d->n; i++)
        emu_stream_unref(d->v[i].s);
    free(d->v);
    *d = (emu_deps){ 0 };
}

bool emu_deps_done(const emu_deps *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->v[i].s->completed < d->v[i].seq)
            return false;
    return true;
}

/* The legacy default stream's rules ("Stream synchronization behavior"):
 * work on it waits for all earlier work of every blocking stream of its
 * context, and work on a blocking stream waits for all earlier work of the
 * legacy stream.  Non-blocking streams are exempt both ways. */
static void add_implicit_deps(CUstream s, emu_op *op)
{
    CUcontext c = s->ctx;
    if (s->kind == EMU_STREAM_LEGACY) {
        for (CUstream t = c->streams; t; t = t->next)
            if (t != s && emu_stream_blocking(t))
                emu_deps_add(&op->deps, t, t->enqueued);
    } else if (emu_stream_blocking(s)) {
        emu_deps_add(&op->deps, c->legacy, c->legacy->enqueued);
    }
}

/* ---- workers ------------------------------------------------------------- */

static bool op_can_start(emu_op *op)
{
    return emu_deps_done(&op->deps) && (!op->cls->ready || op->cls->ready(op));
}

/* The next operation of s once it may start; NULL when s is destroyed and
 * drained. */
static emu_op *next_op(CUstream s)
{
    for (;;) {
        emu_op *op = s->head;
        if (!op && s->dying)
            return NULL;
        if (op && op_can_start(op))
            return op;
        emu_wait_progress(op && op->cls->ready ? EMU_POLL_NS : 0);
    }
}

static void complete(CUstream s, emu_op *op)
{
    s->head = op->next;
    if (!s->head)
        s->tail = NULL;
    s->completed = op->seq;
    if (op->cls->retire)
        op->cls->retire(op);
    op_free(op);
    emu_broadcast();
}

static void *worker_main(void *arg)
{
    CUstream s = arg;
    emu_lock();
    emu_op *op;
    while ((op = next_op(s)) != NULL) {
        emu_unlock();
        if (op->cls->run)
            op->cls->run(op);
        emu_lock();
        complete(s, op);
    }
    s->worker = false;
    emu_stream_unref(s);
    emu_unlock();
    return NULL;
}

/* Process-directed signals (SIGINT, SIGALRM, SIGCHLD...) belong to the
 * program's threads, so workers block them; faults stay deliverable because
 * host functions run user code on the worker. */
static void block_async_signals(sigset_t *old)
{
    sigset_t set;
    sigfillset(&set);
    int sync_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS };
    for (size_t i = 0; i < sizeof sync_signals / sizeof *sync_signals; i++)
        sigdelset(&set, sync_signals[i]);
    pthread_sigmask(SIG_SETMASK, &set, old);
}

static void start_worker(CUstream s)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t old;
    block_async_signals(&old);
    pthread_t t;
    int err = pthread_create(&t, &attr, worker_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (err)
        emu_fatal("cannot start a stream worker thread (error %d)", err);
    pthread_setname_np(t, "sgemu-stream");
    s->worker = true;
    emu_stream_ref(s);
}

uint64_t emu_enqueue(CUstream s, emu_op *op)
{
    add_implicit_deps(s, op);
    op->stream = s;
    op->seq = ++s->enqueued;
    op->next = NULL;
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    if (op->cls->enqueued)
        op->cls->enqueued(op);
    emu_note_enqueued();
    if (!s->worker)
        start_worker(s);
    emu_broadcast();
    return op->seq;
}

/* ---- host waits ---------------------------------------------------------- */

void emu_host_wait(const emu_deps *d)
{
    if (emu_deps_done(d))
        return;
    emu_fire_host_wait_releases();
    while (!emu_deps_done(d))
        emu_wait_progress(0);
}

void emu_host_wait_op(CUstream s, uint64_t seq)
{
    emu_deps d = { 0 };
    emu_deps_add(&d, s, seq);
    emu_host_wait(&d);
    emu_deps_clear(&d);
}
