/* SPDX-License-Identifier: Apache-2.0 */
/* A copy's start: the driver accepted it, so its slot is filled, an event
 * is recorded after it on its stream, and its pages are guarded. */
#include "config.h"


#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "base/page.h"
#include "base/stats.h"
#include "driver/driver.h"
#include "driver/eventpool.h"
#include "guard/guard.h"
#include "life/life.h"
#include "report/report.h"

static uint64_t next_id = 1;

SG_REQUIRES(sg_model_lock)
static void fill(struct sg_copy *c, const struct sg_copy_request *rq,
                 const struct sg_stream_info *si, uint64_t seq, CUevent ev, const uintptr_t *pcs,
                 int npcs)
{
    c->id = next_id++;
    c->desc = rq->desc;
    c->size = sg_shape_extent(&rq->shape);
    c->probe_addr = 0;
    c->probe_in_flight = 0;
    c->probe_unwaited = 0;
    c->reported_in_call = 0;
    c->stream = *si;
    c->seq = seq;
    c->sync_serial = sg_sync_serial();
    c->event = ev;
    c->tid = sg_gettid();
    c->npcs = npcs < SG_MAX_FRAMES ? npcs : SG_MAX_FRAMES;
    for (int i = 0; i < c->npcs; i++)
        c->pcs[i] = pcs[i];
    c->npy = rq->npy < SG_MAX_PYFRAMES ? rq->npy : SG_MAX_PYFRAMES;
    for (int i = 0; i < c->npy; i++)
        c->py[i] = rq->py[i];
}

void sg_copy_track(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs)
{
    if (sg_shape_extent(&rq->shape) == 0)
        return;
    sg_reporter_ensure_started();

    /* The event goes into the stream right after the copy; it needs the
     * stream's context, which only the model knows for user streams. */
    sg_lock(&sg_model_lock);
    struct sg_stream_info si;
    sg_stream_info(sg_stream_get(rq->stream, rq->per_thread), &si);
    sg_unlock(&sg_model_lock);
    int guard = !rq->sampled_out;
    CUevent ev = guard ? sg_event_pool_get(si.ctx) : NULL;
    if (ev && sg_driver()->cuEventRecord(ev, si.handle) != CUDA_SUCCESS) {
        sg_event_pool_put(si.ctx, ev);
        ev = NULL;
    }

    sg_lock(&sg_model_lock);
    struct sg_stream *s = sg_stream_get(rq->stream, rq->per_thread);
    uint64_t seq = sg_stream_enqueue(s);
    if (!guard) {
        sg_unlock(&sg_model_lock);
        return; /* sampled out (sample=N): the model follows it, no guard */
    }
    if (!sg_maps_room_for_guard()) {
        sg_unlock(&sg_model_lock);
        sg_event_pool_put(si.ctx, ev);
        return; /* counted in guards_skipped_maps (verbosity=1) */
    }
    uintptr_t extent = sg_shape_extent(&rq->shape);
    struct sg_copy *c = sg_copies_alloc(sg_page_down(rq->base), sg_page_up(rq->base + extent));
    if (!c) {
        sg_unlock(&sg_model_lock);
        sg_event_pool_put(si.ctx, ev);
        SG_WARN_ONCE("more than max_pending=%ld copies in flight; further copies run unguarded "
                     "until some complete\n",
                     sg_opt.max_pending);
        return;
    }
    fill(c, rq, &si, seq, ev, pcs, npcs);
    sg_stream_clock(s, &c->after);
    if (sg_guard_update(c->pg_lo, c->pg_hi) < 0) {
        sg_copy_release(c);
        sg_unlock(&sg_model_lock);
        SG_WARN_ONCE("cannot protect the host pages of a copy (mprotect failed); it runs "
                     "unguarded\n");
        return;
    }
    sg_stat_add(SG_STAT_pages_guarded, (c->pg_hi - c->pg_lo) / sg_page_size);
    SG_VLOG(2, "copy #%llu %s %#lx+%zu guarded on stream %p\n", (unsigned long long)c->id,
            rq->api, (unsigned long)rq->base, c->size, (void *)si.handle);
    sg_unlock(&sg_model_lock);
}
