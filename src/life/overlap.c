/* SPDX-License-Identifier: Apache-2.0 */
/* Copy against copy in one pinned buffer. When a copy is enqueued, every
 * active copy (or memset) whose bytes it shares is looked at: if one
 * direction reads what the other writes (a host-to-device copy's source
 * against a device-to-host copy's destination), and the new copy's stream
 * is not ordered after the old one (same stream, an event wait, the legacy
 * stream's rules: its vector clock covers it), the device may run them in
 * either order, and the copy that reads gets old bytes, new ones or a mix.
 * That is reported at once, as copy-overlap, the new copy's enqueue stack
 * as the access and the old one's as the copy. syncguard cannot order
 * them: the program goes on as without it. */
#include "config.h"

#include <string.h>

#include "base/context.h"
#include "base/lock.h"
#include "base/options.h"
#include "base/page.h"
#include "driver/driver.h"
#include "life/overlap.h"
#include "model/copies.h"
#include "model/model.h"
#include "model/sync.h"
#include "report/report.h"

#define MAX_ROWS 64

/* One direction reads what the other writes: only device copies and
 * memsets (a kernel's guard is its whole allocation, and a flag is
 * polled). */
static int directions_clash(const struct sg_copy *c, int guard)
{
    if (c->origin == SG_ORIGIN_KERNEL || c->guard == SG_GUARD_FLAG || guard == SG_GUARD_FLAG)
        return 0;
    return (c->guard == SG_GUARD_READ_ONLY) != (guard == SG_GUARD_READ_ONLY);
}

/* The first byte of the request's rows that c also touches, or 0. */
static uintptr_t first_shared(const struct sg_copy *c, const struct sg_copy_request *rq)
{
    const struct sg_shape *s = &rq->shape;
    size_t rows = s->height * s->depth;
    if (rows > MAX_ROWS)
        rows = 1, s = NULL; /* many rows: the whole extent, gaps included */
    for (size_t z = 0; z < (s ? s->depth : 1); z++)
        for (size_t y = 0; y < (s ? s->height : 1); y++) {
            uintptr_t lo = rq->base + (s ? (z * s->slice_rows + y) * s->pitch : 0);
            uintptr_t hi = lo + (s ? s->width : sg_shape_extent(&rq->shape));
            uintptr_t at = sg_copy_first_touched(c, lo, hi);
            if (at)
                return at;
        }
    return 0;
}

static void report(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs,
                   struct sg_race *race)
{
    race->kind = SG_RACE_COPY_OVERLAP;
    race->access_api = rq->api;
    race->tid = sg_gettid();
    race->npcs = npcs < SG_MAX_FRAMES ? npcs : SG_MAX_FRAMES;
    memcpy(race->pcs, pcs, (size_t)race->npcs * sizeof *pcs);
    race->npy = rq->npy < SG_MAX_PYFRAMES ? rq->npy : SG_MAX_PYFRAMES;
    memcpy(race->py, rq->py, (size_t)race->npy * sizeof *rq->py);
    sg_context_get(race->context);
    CUevent ev = race->copy.event;
    race->in_flight = !ev || sg_driver()->cuEventQuery(ev) == CUDA_ERROR_NOT_READY;
    if (!race->in_flight && !sg_opt.report_latent)
        return;
    sg_reporter_ensure_started();
    sg_report_act(!sg_report_race(race));
}

/* The first active copy the request clashes with, found among the copies
 * on its pages (the copy table's index: no scan of every copy in flight). */
struct clash {
    const struct sg_copy_request *rq;
    const struct sg_vc *now;
    uint32_t stream;
    struct sg_copy *c;
    uintptr_t at;
};

SG_REQUIRES(sg_model_lock) static void find_clash(struct sg_copy *c, void *arg)
{
    struct clash *h = arg;
    uintptr_t at;
    if (h->c || c->state != SG_COPY_ACTIVE || c->stream.idx == h->stream ||
        sg_vc_get(h->now, c->stream.idx) >= c->seq || !directions_clash(c, h->rq->guard) ||
        !(at = first_shared(c, h->rq)))
        return;
    h->c = c, h->at = at;
}

void sg_copy_overlap_check(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs)
{
    if (sg_opt.mode == SG_MODE_SYNC || sg_copies_active_count() == 0)
        return;
    static struct sg_race race; /* big: not on the stack; under report_lock */
    static sg_lock_t report_lock = SG_LOCK_INIT;
    struct sg_vc now = { 0 };
    struct sg_stream_info si;
    sg_lock(&sg_model_lock);
    struct sg_stream *s = sg_stream_get(rq->stream, rq->per_thread);
    sg_stream_info(s, &si);
    sg_stream_snapshot(s, &now);
    struct clash h = { rq, &now, si.idx, NULL, 0 };
    uintptr_t end = rq->base + sg_shape_extent(&rq->shape);
    sg_copies_overlapping(sg_page_down(rq->base), sg_page_up(end), find_clash, &h);
    sg_vc_free(&now);
    struct sg_copy *c = h.c;
    uintptr_t at = h.at;
    sg_unlock(&sg_model_lock);
    if (!c)
        return;
    /* One report per copy: the first clash found. */
    sg_lock(&report_lock);
    sg_lock(&sg_model_lock);
    int still = c->state == SG_COPY_ACTIVE && c->base <= at && at < c->base + c->size;
    if (still) {
        memcpy(&race.copy, c, sizeof *c);
        race.addr = at;
        race.nsyncs = sg_sync_sites_since(c->sync_serial, race.syncs, SG_RACE_SYNCS);
    }
    sg_unlock(&sg_model_lock);
    if (still)
        report(rq, pcs, npcs, &race);
    sg_unlock(&report_lock);
}
