/* The table of guarded copies. Slots, the free stack and the list of
 * active slots are mapped once at start-up: the fault handler searches and
 * releases copies without allocating. All access under sg_model_lock. */
#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "syncguard/common.h"
#include "syncguard/copies.h"
#include "syncguard/guard.h"
#include "syncguard/intercept.h"
#include "syncguard/log.h"
#include "syncguard/observe.h"
#include "syncguard/options.h"
#include "syncguard/stats.h"

CUevent sg_event_pool_get(CUcontext ctx);
void sg_event_pool_put(CUcontext ctx, CUevent e);
void sg_reporter_ensure_started(void);

static struct sg_copy *slots;
static uint32_t *free_stack, *active;
static uint32_t nslots, nfree, nactive;
static uint64_t next_id = 1, guarded_total;

uintptr_t sg_page_size = 4096;

struct sg_shape sg_shape_linear(size_t n)
{
    return (struct sg_shape){ n, n, 1, 1, 1 };
}

size_t sg_shape_extent(const struct sg_shape *s)
{
    if (!s->width || !s->height || !s->depth)
        return 0;
    return ((s->depth - 1) * s->slice_rows + (s->height - 1)) * s->pitch + s->width;
}

/* The first byte of s at or after offset off, or the extent if none: past
 * a row's width comes the next row, past a slice's last row the next
 * slice. Arithmetic only, however wide the range: the fault handler asks
 * this of a whole rep string instruction. */
static size_t shape_next(const struct sg_shape *s, size_t off)
{
    size_t extent = sg_shape_extent(s);
    if (off >= extent)
        return extent;
    size_t row = off / s->pitch, col = off % s->pitch;
    if (col >= s->width)
        row++, col = 0;
    if (row % s->slice_rows >= s->height)
        row = (row / s->slice_rows + 1) * s->slice_rows, col = 0;
    size_t next = row * s->pitch + col;
    return next < extent ? next : extent;
}

uintptr_t sg_copy_first_touched(const struct sg_copy *c, uintptr_t lo, uintptr_t hi)
{
    uintptr_t end = c->base + c->size;
    if (lo < c->base)
        lo = c->base;
    if (hi > end)
        hi = end;
    if (lo >= hi)
        return 0;
    uintptr_t a = c->base + shape_next(&c->shape, lo - c->base);
    return a < hi ? a : 0;
}

static void *map_zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int sg_copies_init(long max_pending)
{
    sg_page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    nslots = (uint32_t)max_pending;
    slots = map_zeroed(nslots * sizeof *slots);
    free_stack = map_zeroed(nslots * sizeof *free_stack);
    active = map_zeroed(nslots * sizeof *active);
    if (!slots || !free_stack || !active)
        return -1;
    for (uint32_t i = 0; i < nslots; i++)
        free_stack[i] = nslots - 1 - i;
    nfree = nslots;
    return 0;
}

uint64_t sg_copies_guarded_total(void)
{
    return guarded_total;
}

static struct sg_copy *slot_alloc(void)
{
    if (nfree == 0)
        return NULL;
    struct sg_copy *c = &slots[free_stack[--nfree]];
    c->active_pos = nactive;
    active[nactive++] = (uint32_t)(c - slots);
    return c;
}

static void slot_free(struct sg_copy *c)
{
    uint32_t pos = c->active_pos, last = active[--nactive];
    active[pos] = last;
    slots[last].active_pos = pos;
    c->state = SG_COPY_FREE;
    free_stack[nfree++] = (uint32_t)(c - slots);
}

void sg_copies_overlapping(uintptr_t lo, uintptr_t hi, void (*fn)(struct sg_copy *, void *),
                           void *arg)
{
    for (uint32_t i = 0; i < nactive; i++) {
        struct sg_copy *c = &slots[active[i]];
        if (c->pg_lo < hi && c->pg_hi > lo)
            fn(c, arg);
    }
}

struct sg_copy *sg_copies_find(uintptr_t addr, int is_write, int *page_guarded)
{
    struct sg_copy *best = NULL;
    uintptr_t page = sg_page_down(addr);
    *page_guarded = 0;
    for (uint32_t i = 0; i < nactive; i++) {
        struct sg_copy *c = &slots[active[i]];
        if (page < c->pg_lo || page >= c->pg_hi)
            continue;
        *page_guarded = 1;
        if (!sg_copy_touches(c, addr, addr + 1))
            continue;
        /* A read of an H2D source is fine: it is a write that conflicts. */
        int conflicts = c->guard == SG_GUARD_NO_ACCESS || is_write;
        if (conflicts && (!best || sg_copy_unclaimed(c)))
            best = c;
    }
    return best;
}

/* Frees a copy's slot and event; its pages are the caller's to update. */
static void forget_copy(struct sg_copy *c)
{
    sg_event_pool_put(c->stream.ctx, c->event);
    c->event = NULL;
    slot_free(c);
}

void sg_copy_release(struct sg_copy *c)
{
    uintptr_t lo = c->pg_lo, hi = c->pg_hi;
    forget_copy(c);
    sg_guard_update(lo, hi);
}

/* Page ranges whose guards one observation released, merged where they
 * touch, so that copies into neighbouring buffers (a batch and its labels)
 * are opened by one mprotect call, not one each. */
#define RELEASED_MAX 32

struct released {
    int n;
    uintptr_t lo[RELEASED_MAX], hi[RELEASED_MAX];
};

static void update_released(struct released *r)
{
    for (int i = 0; i < r->n; i++)
        sg_guard_update(r->lo[i], r->hi[i]);
    r->n = 0;
}

static void add_released(struct released *r, uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < r->n; i++)
        if (lo <= r->hi[i] && hi >= r->lo[i]) { /* overlapping or adjacent */
            r->lo[i] = lo < r->lo[i] ? lo : r->lo[i];
            r->hi[i] = hi > r->hi[i] ? hi : r->hi[i];
            return;
        }
    if (r->n == RELEASED_MAX)
        update_released(r);
    r->lo[r->n] = lo, r->hi[r->n] = hi;
    r->n++;
}

void sg_copies_release_covered(const struct sg_vc *vc)
{
    struct released r = { 0 };
    for (uint32_t i = 0; i < nactive;) {
        struct sg_copy *c = &slots[active[i]];
        /* A copy the fault handler is synchronizing is released by it. */
        int covered = sg_vc_get(vc, c->stream.idx) >= c->seq;
        if (c->state == SG_COPY_HANDLING && covered)
            c->settling = 0; /* observed: an access now is no race */
        if (c->state == SG_COPY_ACTIVE && covered) {
            if (sg_opt.verbosity >= 2)
                sg_log_printf("==%d==syncguard: copy #%llu observed complete\n", (int)getpid(),
                              (unsigned long long)c->id);
            add_released(&r, c->pg_lo, c->pg_hi);
            forget_copy(c); /* moves the last active slot into position i */
        } else {
            i++;
        }
    }
    update_released(&r);
}

static void fill(struct sg_copy *c, const struct sg_copy_request *rq,
                 const struct sg_stream_info *si, uint64_t seq, CUevent ev, const uintptr_t *pcs,
                 int npcs)
{
    c->state = SG_COPY_ACTIVE;
    c->settling = 0;
    c->id = next_id++;
    c->base = rq->base;
    c->shape = rq->shape;
    c->size = sg_shape_extent(&rq->shape);
    c->pg_lo = sg_page_down(rq->base);
    c->pg_hi = sg_page_up(rq->base + c->size);
    c->guard = rq->guard;
    c->api = rq->api;
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
    static int said_full, said_mprotect;
    if (sg_shape_extent(&rq->shape) == 0)
        return;
    sg_reporter_ensure_started();

    /* The event goes into the stream right after the copy; it needs the
     * stream's context, which only the model knows for user streams. */
    sg_lock(&sg_model_lock);
    struct sg_stream_info si;
    sg_stream_info(sg_stream_get(rq->stream, rq->per_thread), &si);
    sg_unlock(&sg_model_lock);
    CUevent ev = sg_event_pool_get(si.ctx);
    if (ev && sg_driver()->cuEventRecord(ev, si.handle) != CUDA_SUCCESS) {
        sg_event_pool_put(si.ctx, ev);
        ev = NULL;
    }

    sg_lock(&sg_model_lock);
    struct sg_stream *s = sg_stream_get(rq->stream, rq->per_thread);
    uint64_t seq = sg_stream_enqueue(s);
    struct sg_copy *c = slot_alloc();
    if (!c) {
        sg_unlock(&sg_model_lock);
        sg_event_pool_put(si.ctx, ev);
        sg_log_warn_once(&said_full,
                         "more than max_pending=%ld copies in flight; further copies run "
                         "unguarded until some complete",
                         sg_opt.max_pending);
        return;
    }
    fill(c, rq, &si, seq, ev, pcs, npcs);
    guarded_total++;
    if (sg_guard_update(c->pg_lo, c->pg_hi) < 0) {
        sg_copy_release(c);
        sg_unlock(&sg_model_lock);
        sg_log_warn_once(&said_mprotect,
                         "cannot protect the host pages of a copy (mprotect failed); it runs "
                         "unguarded");
        return;
    }
    sg_stat_add(SG_STAT_pages_guarded, (c->pg_hi - c->pg_lo) / sg_page_size);
    if (sg_opt.verbosity >= 2)
        sg_log_printf("==%d==syncguard: copy #%llu %s %#lx+%zu guarded on stream %p\n",
                      (int)getpid(), (unsigned long long)c->id, rq->api,
                      (unsigned long)rq->base, c->size, (void *)si.handle);
    sg_unlock(&sg_model_lock);
}

void sg_copies_after_fork_child(void)
{
    /* The child's copies of guarded pages would fault with nobody to
     * release them: give them back their normal protection first. With no
     * copy left in the table, sg_guard_update works that out page by page
     * (the program's own mprotect calls may differ within a range). */
    uint32_t n = nactive;
    nactive = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct sg_copy *c = &slots[active[i]];
        sg_guard_update(c->pg_lo, c->pg_hi);
        c->state = SG_COPY_FREE;
        c->event = NULL;
    }
    nfree = nslots;
    for (uint32_t i = 0; i < nslots; i++)
        free_stack[i] = nslots - 1 - i;
}

uint32_t sg_copies_active_count(void)
{
    return __atomic_load_n(&nactive, __ATOMIC_RELAXED);
}
