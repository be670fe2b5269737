/* Guarding the host side of an intercepted copy. The enqueue stacks are
 * captured lazily: only a copy with a pinned host side pays for them, and
 * a call with several such ranges (a batch) pays once. */
#include "config.h"

#include "copy_site.h"
#include "syncguard/guard.h"
#include "syncguard/observe.h"
#include "syncguard/options.h"
#include "syncguard/python.h"
#include "syncguard/stack.h"

#define MAX_ROW_SLOTS 64

/* Stream captures record copies into a graph instead of running them:
 * nothing to guard. Asked once per call. */
static int stream_capturing(struct copy_call *call)
{
    if (call->capturing == 0)
        call->capturing = sg_stream_is_capturing(call->stream, call->per_thread) ? 1 : -1;
    return call->capturing > 0;
}

static void capture(struct copy_call *call)
{
    if (call->captured)
        return;
    call->site.npcs = sg_stack_capture(call->site.pcs, (int)sg_opt.max_frames);
    call->site.npy = sg_python_capture(call->site.py, SG_MAX_PYFRAMES);
    call->captured = 1;
}

static void track(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard)
{
    struct sg_copy_request rq = { call->api, call->stream, call->per_thread, host, shape, guard,
                                  call->site.py, call->site.npy };
    sg_copy_track(&rq, call->site.pcs, call->site.npcs);
}

void sg_copy_call_guard(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard)
{
    if (guard == SG_GUARD_READ_ONLY && !sg_opt.guard_sources)
        return;
    size_t extent = sg_shape_extent(&shape);
    if (!host || !extent || !sg_pinned_lookup(host, extent, NULL) || stream_capturing(call))
        return;
    capture(call);
    size_t rows = shape.height * shape.depth;
    /* Rows far apart leave whole pages between them that need no guard:
     * guard each row on its own, as long as there are few. */
    if (shape.pitch - shape.width >= sg_page_size && rows <= MAX_ROW_SLOTS) {
        for (size_t z = 0; z < shape.depth; z++)
            for (size_t y = 0; y < shape.height; y++)
                track(call, host + (z * shape.slice_rows + y) * shape.pitch,
                      sg_shape_linear(shape.width), guard);
        return;
    }
    track(call, host, shape, guard);
}

void sg_copy_call_done(const struct copy_call *call)
{
    if (!call->captured && call->capturing <= 0 && sg_observe_needed())
        sg_note_stream_work(call->stream, call->per_thread);
}
