/* SPDX-License-Identifier: Apache-2.0 */
/* What happens to an access that conflicts with a pending copy: it is
 * reported (mode report or abort; latent ones only with report_latent), the
 * copy is waited for on its own event, its guard is released, and the
 * access goes ahead on the copied data. Runs in the fault handler: no
 * allocation, the model lock only around table changes, never while
 * waiting for the device. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "base/common.h"
#include "base/context.h"
#include "base/lock.h"
#include "base/options.h"
#include "capture/python.h"
#include "capture/stack.h"
#include "driver/driver.h"
#include "fault/resolve.h"
#include "fault/wait.h"
#include "guard/guard.h"
#include "work/hostfn.h"
#include "base/stats.h"
#include "life/life.h"
#include "model/incall.h"
#include "model/sync.h"
#include "report/report.h"
#include "report/suppress.h"

#define SETTLE_MAX 64

static enum sg_race_kind race_kind(const struct sg_copy *c, int access)
{
    if (access == SG_ACCESS_FREE)
        return SG_RACE_FREE_IN_FLIGHT;
    if (c->kernel)
        return access == SG_ACCESS_WRITE ? SG_RACE_KERNEL_WRITE : SG_RACE_KERNEL_READ;
    if (c->guard == SG_GUARD_READ_ONLY)
        return SG_RACE_EARLY_WRITE_SRC;
    return access == SG_ACCESS_WRITE ? SG_RACE_EARLY_WRITE_DST : SG_RACE_EARLY_READ;
}

/* Whether the copy was still running when the host touched it. */
static int copy_in_flight(CUevent ev)
{
    return !ev || sg_driver()->cuEventQuery(ev) == CUDA_ERROR_NOT_READY;
}

/* Waits until the copy is done on the device. */
static void wait_for_copy(CUevent ev, CUstream h)
{
    const struct sg_driver *d = sg_driver();
    /* While it waits the thread is the program's: a signal handler of its
     * own may run, and leave by siglongjmp (a timeout, an interpreter's
     * KeyboardInterrupt). syncguard must not then stay "entered" for
     * good: its shims would pass every later call through. */
    int depth = sg_in_syncguard;
    sg_in_syncguard = 0;
    if (!ev) {
        if (d->cuStreamSynchronize)
            d->cuStreamSynchronize(h);
    } else {
        d->cuEventSynchronize(ev);
    }
    sg_in_syncguard = depth;
}

/* Whether the copy may wait for something the interrupted thread itself
 * is to do: a gate in front of it (a wait-value operation, a host function
 * still running: model/gates.c), or the thread is a host function (the
 * work it belongs to waits for it). Such a copy is waited for boundedly.
 * Lock held. */
SG_REQUIRES(sg_model_lock) static int gated_by_us(const struct sg_copy *c)
{
    return sg_in_host_fn() || sg_gate_before(&c->after);
}

/* A kernel may also poll host memory for what this thread is to write
 * (fault/kernel_access.h): its access is a race either way, reported before
 * the bounded wait. */
SG_REQUIRES(sg_model_lock) static int may_wait_for_us(const struct sg_copy *c)
{
    return c->origin == SG_ORIGIN_KERNEL || gated_by_us(c);
}

void sg_copy_leave_unguarded(struct sg_copy *c)
{
    sg_copy_stay_unguarded(c);
    sg_guard_update(c->pg_lo, c->pg_hi);
}

/* The bounded wait for a copy that may wait for the interrupted thread. 1
 * when the copy completed; else the thread's access goes through unreported
 * and unchecked: the copy stays pending, unguarded (#11: never hang). */
SG_EXCLUDES(sg_model_lock) static int wait_bounded_or_let_through(struct sg_copy *c, uint64_t id)
{
    int depth = sg_in_syncguard;
    sg_in_syncguard = 0;
    int done = sg_wait_bounded(c->event, sg_opt.wait_bound_ms);
    sg_in_syncguard = depth;
    if (done)
        return 1;
    sg_stat_add(SG_STAT_waits_abandoned, 1);
    sg_lock(&sg_model_lock);
    if (c->id == id && c->state == SG_COPY_HANDLING)
        sg_copy_leave_unguarded(c);
    sg_unlock(&sg_model_lock);
    return 0;
}

/* Releases a copy we marked HANDLING, unless someone else already did. */
SG_EXCLUDES(sg_model_lock) static void release_if_ours(struct sg_copy *c, uint64_t id)
{
    sg_lock(&sg_model_lock);
    if (c->id == id && c->state == SG_COPY_HANDLING)
        sg_copy_release(c);
    sg_unlock(&sg_model_lock);
}

static int capture(ucontext_t *uc, uintptr_t *pcs)
{
    int max = (int)sg_opt.max_frames;
    return uc ? sg_stack_capture_signal(uc, pcs, max) : sg_stack_capture(pcs, max);
}

/* Writes the report; 1 unless suppressed. */
static int report(struct sg_race *race, ucontext_t *uc)
{
    race->npcs = capture(uc, race->pcs);
    race->npy = sg_python_capture(race->py, SG_MAX_PYFRAMES);
    sg_context_get(race->context);
    return !sg_report_race(race);
}

/* A report is written before any wait that has no bound, so that a
 * program that then hangs still says why; a copy behind a gate the
 * interrupted thread is to open is waited for first (boundedly): only if it
 * then completed was the access a race. A kernel's range (kernel_args=2, or
 * a read kernel_access.c found to be one of results) is reported first,
 * then waited for boundedly. */
void sg_resolve(struct sg_copy *c, uintptr_t addr, int access, ucontext_t *uc)
{
    SG_DCHECK_HELD(&sg_model_lock);
    SG_DCHECK(sg_copy_in_use(c));
    if (sg_host_fn_before_copy(c)) { /* stream order: no race, and no wait */
        sg_unlock(&sg_model_lock);
        sg_stat_add(SG_STAT_faults_ordered_before, 1);
        return;
    }
    struct sg_race race;
    int first = sg_copy_unclaimed(c); /* else another thread reports it */
    int gated = gated_by_us(c), bounded = may_wait_for_us(c);
    race.kind = race_kind(c, access);
    race.access_api = sg_driver_call_now ? sg_driver_call_now->api : NULL;
    race.addr = addr;
    race.tid = sg_gettid();
    memcpy(&race.copy, c, sizeof *c);
    race.nsyncs = sg_sync_sites_since(c->sync_serial, race.syncs, SG_RACE_SYNCS);
    uint64_t id = c->id;
    sg_copy_claim(c);
    sg_unlock(&sg_model_lock);

    /* A kernel's range whose first read waited for it (kernel_access.c):
     * the race began while it ran. */
    race.in_flight = race.copy.probe_in_flight || copy_in_flight(race.copy.event);
    int to_report = first && sg_opt.mode != SG_MODE_SYNC && (race.in_flight || sg_opt.report_latent);
    if (race.in_flight && gated && !wait_bounded_or_let_through(c, id))
        return;
    int reported = to_report && report(&race, uc);
    if (race.in_flight && bounded && !gated)
        wait_bounded_or_let_through(c, id); /* then left pending, unguarded */
    else if (race.in_flight && !bounded)
        wait_for_copy(race.copy.event, race.copy.stream.handle);
    release_if_ours(c, id);
    sg_report_act(reported); /* a suppressed race is synchronized, and goes on */
}

void sg_report_in_call(struct sg_copy *c, uintptr_t addr, int access, ucontext_t *uc)
{
    SG_DCHECK_HELD(&sg_model_lock);
    if (c->reported_in_call || !sg_copy_unclaimed(c) || sg_opt.mode == SG_MODE_SYNC)
        return;
    c->reported_in_call = 1;
    struct sg_race race;
    race.kind = race_kind(c, access);
    race.access_api = sg_driver_call_now->api;
    race.addr = addr;
    race.tid = sg_gettid();
    memcpy(&race.copy, c, sizeof *c);
    race.nsyncs = sg_sync_sites_since(c->sync_serial, race.syncs, SG_RACE_SYNCS);
    /* Unordered with the call: a race whatever the timing (and the driver,
     * which the call is inside, is not asked). */
    race.in_flight = 1;
    sg_unlock(&sg_model_lock);
    int reported = report(&race, uc);
    sg_lock(&sg_model_lock);
    sg_report_act(reported);
}

struct settle_set {
    int n;
    struct sg_copy *c[SETTLE_MAX];
    uint64_t id[SETTLE_MAX];
    unsigned char bounded[SETTLE_MAX]; /* may wait for the interrupted thread */
};

/* Waits for each copy of the set and releases it; one that may wait for
 * the interrupted thread only boundedly (then left pending, unguarded). */
SG_EXCLUDES(sg_model_lock) static void settle_set_wait(const struct settle_set *set)
{
    for (int i = 0; i < set->n; i++) {
        struct sg_copy *c = set->c[i];
        if (set->bounded[i] && copy_in_flight(c->event) &&
            !wait_bounded_or_let_through(c, set->id[i]))
            continue;
        wait_for_copy(c->event, c->stream.handle);
        release_if_ours(c, set->id[i]);
    }
}

SG_REQUIRES(sg_model_lock) static void take_active(struct sg_copy *c, void *arg)
{
    struct settle_set *set = arg;
    if (c->state != SG_COPY_ACTIVE || set->n == SETTLE_MAX)
        return;
    sg_copy_settle_start(c);
    set->c[set->n] = c, set->id[set->n] = c->id;
    set->bounded[set->n] = (unsigned char)may_wait_for_us(c);
    set->n++;
}

struct done_check {
    int active, all_done;
};

SG_REQUIRES(sg_model_lock) static void check_done(struct sg_copy *c, void *arg)
{
    struct done_check *d = arg;
    if (c->state != SG_COPY_ACTIVE || !d->all_done)
        return;
    d->active = 1;
    /* No event: only a stream synchronize could tell. */
    d->all_done = c->event && sg_driver()->cuEventQuery(c->event) == CUDA_SUCCESS;
}

int sg_settle_done(uintptr_t lo, uintptr_t hi)
{
    struct done_check d = { 0, 1 };
    sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), check_done, &d);
    /* Only copies being handled (a thread waits for them: this one, in a
     * fault its signal handler interrupted): settling would open nothing,
     * and the access would only fault again. */
    return d.all_done && d.active;
}

SG_REQUIRES(sg_model_lock) static void take_handling(struct sg_copy *c, void *arg)
{
    struct settle_set *set = arg;
    if (c->state != SG_COPY_HANDLING || set->n == SETTLE_MAX)
        return;
    set->c[set->n] = c, set->id[set->n] = c->id;
    set->bounded[set->n] = (unsigned char)may_wait_for_us(c);
    set->n++;
}

void sg_settle_handled(uintptr_t lo, uintptr_t hi)
{
    SG_DCHECK_HELD(&sg_model_lock);
    struct settle_set set = { 0 };
    sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), take_handling, &set);
    sg_unlock(&sg_model_lock);
    settle_set_wait(&set);
}

void sg_settle(uintptr_t lo, uintptr_t hi)
{
    SG_DCHECK_HELD(&sg_model_lock);
    struct settle_set set = { 0 };
    sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), take_active, &set);
    sg_unlock(&sg_model_lock);
    settle_set_wait(&set);
}
