/* SPDX-License-Identifier: Apache-2.0 */
/* A launch of an executable graph, modelled item by item on the launch
 * stream (work/graph.h says how), ordered after the previous launch of the
 * same graph. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/lock.h"
#include "base/options.h"
#include "life/life.h"
#include "life/site.h"
#include "model/model.h"
#include "model/sync.h"
#include "work/graph.h"
#include "work/graph_int.h"
#include "work/graph_walk.h"
#include "work/kernel.h"
#include "learn/learn.h"

/* What the launch stream's work so far stands for. */
static void stream_now(CUstream s, int per_thread, struct sg_vc *out)
{
    sg_lock(&sg_model_lock);
    sg_stream_snapshot(sg_stream_get(s, per_thread), out);
    sg_unlock(&sg_model_lock);
}

/* Guards what a copy, memset, kernel or memory operation item writes or
 * reads in host memory, as the launch's call (a memory operation's word
 * as a flag, as on a stream: memop.c). */
static void guard_item(struct copy_call *call, const struct graph_item *x)
{
    call->kernel = NULL;
    call->origin = SG_ORIGIN_COPY;
    call->learnt = 0;
    switch (x->kind) {
    case GI_KERNEL:
        call->api = "cuGraphLaunch (kernel node)";
        if (sg_opt.kernel_args)
            sg_kernel_guard(call, x->kernel, x->ptrs, x->nptrs, sg_learn_set_of(x->func));
        break;
    case GI_MEMOP:
        call->api = "cuGraphLaunch (memory operation node)";
        call->origin = SG_ORIGIN_MEMOP;
        for (unsigned i = 0; i < x->nwrites; i++) {
            uintptr_t host = sg_copy_mapped_side(x->writes[i].address);
            call->value = x->writes[i].value;
            if (host)
                sg_copy_call_guard(call, host, sg_shape_linear(x->writes[i].size), SG_GUARD_FLAG);
        }
        break;
    case GI_MEMSET:
        call->api = "cuGraphLaunch (memset node)";
        call->origin = SG_ORIGIN_MEMSET;
        sg_copy_call_guard_3d(call, &x->copy);
        break;
    default:
        call->api = "cuGraphLaunch (memcpy node)";
        sg_copy_call_guard_3d(call, &x->copy);
        break;
    }
}

/* Models one launch of g's items (a private copy, taken under the lock). */
static void launch_items(const struct graph_items *it, const struct sg_vc *before, CUstream s, int per_thread,
                         struct sg_vc *waited, struct launch_place *place)
{
    struct sg_vc *out = calloc(it->n ? it->n : 1, sizeof *out);
    if (!out)
        return;
    struct copy_call call;
    sg_copy_call_init(&call, "cuGraphLaunch (memcpy node)", s, per_thread);
    for (size_t i = 0; i < it->n; i++) {
        const struct graph_item *x = &it->v[i];
        struct sg_vc in = { 0 };
        sg_vc_copy(&in, before);
        for (size_t k = 0; k < x->ndeps; k++)
            sg_vc_join(&in, &out[x->deps[k]]);
        if (x->kind == GI_COPY || x->kind == GI_MEMSET || x->kind == GI_KERNEL || x->kind == GI_MEMOP) {
            guard_item(&call, x);
            stream_now(s, per_thread, &out[i]); /* up to this copy */
            sg_vc_join(&out[i], &in);
        } else {
            sg_vc_copy(&out[i], &in);
        }
        if (x->kind == GI_RECORD) {
            sg_lock(&sg_model_lock);
            sg_event_recorded(x->event, &in);
            sg_unlock(&sg_model_lock);
        } else if (x->kind == GI_WAIT) {
            struct sg_vc e = { 0 };
            sg_snapshot_event(x->event, &e);
            sg_vc_join(&out[i], &e);
            sg_vc_join(waited, &e);
            sg_vc_free(&e);
        } else if (x->kind == GI_HOST && x->host) {
            sg_graph_queue_host_fn(x->host, &in, place);
        }
        sg_vc_free(&in);
    }
    for (size_t i = 0; i < it->n; i++)
        sg_vc_free(&out[i]);
    free(out);
}

static int copy_items(struct graph_items *dst, const struct graph_items *src)
{
    *dst = (struct graph_items){ 0 };
    if (!src->n)
        return 0;
    dst->v = malloc(src->n * sizeof *dst->v);
    if (!dst->v)
        return -1;
    for (size_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        dst->v[i].deps = NULL, dst->v[i].ndeps = 0;
        dst->v[i].ptrs = NULL, dst->v[i].nptrs = 0;
        dst->v[i].writes = NULL, dst->v[i].nwrites = 0;
        if (src->v[i].nwrites &&
            (dst->v[i].writes = malloc(src->v[i].nwrites * sizeof(struct graph_write))) != NULL) {
            memcpy(dst->v[i].writes, src->v[i].writes, src->v[i].nwrites * sizeof(struct graph_write));
            dst->v[i].nwrites = src->v[i].nwrites;
        }
        if (src->v[i].nptrs && (dst->v[i].ptrs = malloc(src->v[i].nptrs * sizeof(uintptr_t))) != NULL) {
            memcpy(dst->v[i].ptrs, src->v[i].ptrs, src->v[i].nptrs * sizeof(uintptr_t));
            dst->v[i].nptrs = src->v[i].nptrs;
        }
        if (src->v[i].ndeps && (dst->v[i].deps = malloc(src->v[i].ndeps * sizeof(size_t))) != NULL) {
            memcpy(dst->v[i].deps, src->v[i].deps, src->v[i].ndeps * sizeof(size_t));
            dst->v[i].ndeps = src->v[i].ndeps;
        }
        dst->n++;
    }
    return 0;
}

/* Whether a kernel item may write pinned memory now: pinned memory is
 * allocated and freed between launches, so this is asked again whenever
 * the pinned table has changed. */
static int kernel_may_write_pinned(const struct graph_item *x)
{
    if (sg_opt.kernel_all_mapped)
        return 1;
    uintptr_t base;
    size_t size;
    for (unsigned j = 0; j < x->nptrs; j++)
        if (sg_pinned_range_any(x->ptrs[j], &base, &size))
            return 1;
    return 0;
}

/* Whether a launch of these items needs modelling item by item: host
 * copies, events or host nodes; or kernels given pinned memory (a graph
 * of kernels on device memory alone, the common case, is looked up once
 * per change of the pinned table, not at every launch). sg_graphs_lock held. */
SG_REQUIRES(sg_graphs_lock) static int items_matter(struct graph_items *it)
{
    if (it->interesting)
        return 1;
    if (!it->kernels || !sg_opt.kernel_args || !sg_pinned_any())
        return 0;
    uint64_t gen = sg_pinned_generation();
    if (it->kernels_gen == gen)
        return it->kernels_hit;
    it->kernels_hit = 0;
    for (size_t i = 0; i < it->n && !it->kernels_hit; i++)
        if (it->v[i].kind == GI_KERNEL && kernel_may_write_pinned(&it->v[i]))
            it->kernels_hit = 1;
    it->kernels_gen = gen;
    return it->kernels_hit;
}

/* The launch is work on s after the previous launch of the same graph
 * ("each launch is ordered behind ... any previous launches of
 * hGraphExec") and, through its event wait nodes, after those events. */
static void launched(CUgraphExec exec, CUstream s, int per_thread)
{
    struct graph_exec *g;
    struct graph_items items = { 0 };
    struct sg_vc before = { 0 }, after = { 0 }, then = { 0 };
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    int interesting = g && items_matter(&g->items);
    sg_unlock(&sg_graphs_lock);
    /* A graph without host copies, events or host nodes orders nothing
     * that matters while no copy is guarded; a launch into a capture runs
     * nothing now (it becomes a child graph node). */
    if ((!interesting && !sg_observe_needed()) || sg_stream_is_capturing(s, per_thread))
        return;
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    if (g) {
        sg_vc_copy(&after, &g->last);
        if (items_matter(&g->items))
            copy_items(&items, &g->items);
    }
    sg_unlock(&sg_graphs_lock);
    struct launch_place *place = items.n ? calloc(1, sizeof *place) : NULL;
    if (place)
        atomic_init(&place->users, 1);
    if (items.n) {
        stream_now(s, per_thread, &before);
        sg_vc_join(&before, &after);
        launch_items(&items, &before, s, per_thread, &after, place);
        sg_graph_items_free(&items);
    }
    sg_note_ordered_work(s, per_thread, &after, &then);
    if (place) {
        struct sg_stream_info info;
        struct sg_vc now = { 0 };
        sg_snapshot_stream(s, per_thread, &now, &info);
        sg_vc_free(&now);
        place->stream = info.idx;
        atomic_store(&place->seq, sg_vc_get(&then, info.idx));
        sg_graph_place_put(place);
    }
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    if (g)
        sg_vc_join(&g->last, &then);
    sg_unlock(&sg_graphs_lock);
    sg_vc_free(&before), sg_vc_free(&after), sg_vc_free(&then);
}

/* Whether any exec is in the table, looked at without the lock, as every
 * launch does first (not analysed: the table is sg_graphs_lock's). The
 * exec launched was made before its launch, so it is there to be seen; a
 * table changing meanwhile changes only other execs. */
SG_NO_THREAD_SAFETY_ANALYSIS static int any_exec(void)
{
    return sg_graph_execs != NULL;
}

void sg_graph_launched(CUgraphExec exec, CUstream s, int per_thread)
{
    if (any_exec())
        launched(exec, s, per_thread);
}
