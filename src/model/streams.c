/* SPDX-License-Identifier: Apache-2.0 */
/* Streams as the model sees them, and the implicit synchronization of the
 * legacy default stream: an operation on the legacy stream waits for all
 * earlier work of the blocking streams of its context, and an operation on
 * a blocking stream waits for all earlier legacy work. Non-blocking streams
 * are exempt; per-thread default streams are blocking. */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "base/lock.h"
#include "driver/driver.h"
#include "model/model.h"

struct stream_key {
    uintptr_t a; /* user: the handle; special: the context */
    uintptr_t b; /* user: 0; legacy: 1; per-thread: tid << 2 | 2; dead: serial << 2 | 3 */
};

struct sg_stream {
    struct stream_key key;
    UT_hash_handle hh;
    struct sg_stream_info info;
    uint64_t seq;     /* tracked operations enqueued so far */
    struct sg_vc deps; /* what the stream's work so far waited for, elsewhere */
    struct sg_stream *next_blocking; /* on the blocking list */
};

static struct sg_stream *streams;
/* The blocking streams other than the legacy ones, dead ones too (their work
 * still completes): what an operation on a legacy stream waits for. A list
 * of their own because the legacy stream takes most of a program's
 * launches, and PyTorch's streams, the many, are non-blocking: each such
 * launch would otherwise walk every stream there is. */
static struct sg_stream *blocking_streams;
static uint32_t next_idx = 1;
static uint64_t dead_serial;

static struct sg_stream *find(struct stream_key k)
{
    struct sg_stream *s;
    HASH_FIND(hh, streams, &k, sizeof k, s);
    return s;
}

static struct sg_stream *add(struct stream_key k, int kind, int blocking, CUstream h,
                             CUcontext ctx)
{
    struct sg_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->key = k;
    s->info.idx = next_idx++;
    s->info.kind = kind;
    s->info.blocking = blocking;
    s->info.handle = h;
    s->info.ctx = ctx;
    HASH_ADD(hh, streams, key, sizeof k, s);
    if (blocking && kind != SG_STREAM_LEGACY) {
        s->next_blocking = blocking_streams;
        blocking_streams = s;
    }
    return s;
}

/* A stream created before syncguard saw it (or by an entry point it does
 * not wrap): ask the driver once for its flags and context. */
static struct sg_stream *add_unknown_user(CUstream h)
{
    const struct sg_driver *d = sg_driver();
    unsigned flags = 0;
    CUcontext ctx = NULL;
    if (d->cuStreamGetFlags)
        d->cuStreamGetFlags(h, &flags);
    if (!d->cuStreamGetCtx || d->cuStreamGetCtx(h, &ctx) != CUDA_SUCCESS)
        ctx = sg_current_ctx();
    struct stream_key k = { (uintptr_t)h, 0 };
    return add(k, SG_STREAM_USER, !(flags & CU_STREAM_NON_BLOCKING), h, ctx);
}

struct sg_stream *sg_stream_get(CUstream h, int per_thread)
{
    int legacy = h == CU_STREAM_LEGACY || (h == NULL && !per_thread);
    int ptds = h == CU_STREAM_PER_THREAD || (h == NULL && per_thread);
    if (!legacy && !ptds) {
        struct sg_stream *s = find((struct stream_key){ (uintptr_t)h, 0 });
        return s ? s : add_unknown_user(h);
    }
    CUcontext ctx = sg_current_ctx();
    struct stream_key k = { (uintptr_t)ctx,
                            legacy ? 1 : ((uintptr_t)sg_gettid() << 2 | 2) };
    struct sg_stream *s = find(k);
    if (s)
        return s;
    return add(k, legacy ? SG_STREAM_LEGACY : SG_STREAM_PER_THREAD, 1,
               legacy ? CU_STREAM_LEGACY : CU_STREAM_PER_THREAD, ctx);
}

void sg_stream_info(const struct sg_stream *s, struct sg_stream_info *out)
{
    *out = s->info;
}

static struct sg_stream *legacy_of(CUcontext ctx)
{
    return find((struct stream_key){ (uintptr_t)ctx, 1 });
}

/* What an operation that waits for all earlier work of s learns. */
static void join_whole(struct sg_vc *dst, const struct sg_stream *s)
{
    sg_vc_join(dst, &s->deps);
    sg_vc_raise(dst, s->info.idx, s->seq);
}

/* What an operation on s waits for beyond s itself, by the legacy-stream
 * rules, joined into dst. */
static void legacy_joins(const struct sg_stream *s, struct sg_vc *dst)
{
    if (s->info.kind == SG_STREAM_LEGACY) {
        for (struct sg_stream *b = blocking_streams; b; b = b->next_blocking)
            if (b->info.ctx == s->info.ctx)
                join_whole(dst, b);
    } else if (s->info.blocking) {
        struct sg_stream *l = legacy_of(s->info.ctx);
        if (l)
            join_whole(dst, l);
    }
}

static void apply_legacy_rules(struct sg_stream *s)
{
    legacy_joins(s, &s->deps);
}

uint64_t sg_stream_enqueue(struct sg_stream *s)
{
    apply_legacy_rules(s);
    return ++s->seq;
}

void sg_stream_snapshot(struct sg_stream *s, struct sg_vc *out)
{
    sg_vc_copy(out, &s->deps);
    sg_vc_raise(out, s->info.idx, s->seq);
}

void sg_stream_clock(struct sg_stream *s, struct sg_clock *out)
{
    sg_clock_set(out, &s->deps);
    sg_clock_raise(out, s->info.idx, s->seq);
}

void sg_stream_peek(struct sg_stream *s, struct sg_vc *out, uint64_t *seq)
{
    sg_vc_copy(out, &s->deps);
    legacy_joins(s, out);
    sg_vc_raise(out, s->info.idx, s->seq);
    if (seq)
        *seq = s->seq + 1;
}

/* The stream a handle names, never created. */
static const struct sg_stream *find_named(CUstream h, int per_thread, CUcontext ctx)
{
    int legacy = h == CU_STREAM_LEGACY || (h == NULL && !per_thread);
    int ptds = h == CU_STREAM_PER_THREAD || (h == NULL && per_thread);
    if (!legacy && !ptds)
        return find((struct stream_key){ (uintptr_t)h, 0 });
    return find((struct stream_key){ (uintptr_t)ctx,
                                     legacy ? 1 : ((uintptr_t)sg_gettid() << 2 | 2) });
}

/* Whether waiting for all earlier work of s waits for operation seq of
 * stream idx. */
static int whole_covers(const struct sg_stream *s, uint32_t idx, uint64_t seq)
{
    return (s->info.idx == idx && s->seq >= seq) || sg_vc_get(&s->deps, idx) >= seq;
}

int sg_stream_next_covers(CUstream h, int per_thread, CUcontext ctx, uint32_t idx, uint64_t seq)
{
    const struct sg_stream *s = find_named(h, per_thread, ctx);
    if (!s)
        return 0;
    if (whole_covers(s, idx, seq))
        return 1;
    if (s->info.kind == SG_STREAM_LEGACY) {
        for (const struct sg_stream *b = blocking_streams; b; b = b->next_blocking)
            if (b->info.ctx == s->info.ctx && whole_covers(b, idx, seq))
                return 1;
    } else if (s->info.blocking) {
        const struct sg_stream *l = legacy_of(s->info.ctx);
        return l && whole_covers(l, idx, seq);
    }
    return 0;
}

void sg_stream_wait_vc(struct sg_stream *s, const struct sg_vc *vc)
{
    apply_legacy_rules(s);
    sg_vc_join(&s->deps, vc);
}

/* A destroyed stream's work still completes, and copies on it stay pending
 * until the host observes them (through an event or the context), so its
 * record lives on under a key no handle can take. */
static void bury(struct sg_stream *s)
{
    HASH_DEL(streams, s);
    s->key.b = (uintptr_t)(++dead_serial << 2 | 3);
    HASH_ADD(hh, streams, key, sizeof s->key, s);
}

void sg_stream_created(CUstream h, unsigned flags, CUcontext ctx)
{
    struct stream_key k = { (uintptr_t)h, 0 };
    struct sg_stream *old = find(k);
    if (old)
        bury(old); /* the driver reused a handle we never saw destroyed */
    add(k, SG_STREAM_USER, !(flags & CU_STREAM_NON_BLOCKING), h, ctx);
}

void sg_stream_destroyed(CUstream h)
{
    struct sg_stream *s = find((struct stream_key){ (uintptr_t)h, 0 });
    if (s)
        bury(s);
}

void sg_ctx_snapshot(CUcontext ctx, struct sg_vc *out)
{
    struct sg_stream *s, *tmp;
    out->n = 0;
    HASH_ITER(hh, streams, s, tmp)
    {
        if (!ctx || s->info.ctx == ctx)
            join_whole(out, s);
    }
}

void sg_streams_after_fork_child(void)
{
    /* The child has no CUDA work of its parent: start from nothing. The
     * records are leaked on purpose; freeing them is not worth the risk. */
    streams = NULL;
    blocking_streams = NULL;
}
