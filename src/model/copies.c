/* SPDX-License-Identifier: Apache-2.0 */
/* The table of guarded copies. Slots, the free stack and the list of
 * active slots are mapped once at start-up: the fault handler searches and
 * releases copies without allocating. All access under sg_model_lock. A
 * copy's life (track, release) is life/'s; this is only the table. */
#include "config.h"

#include <sys/mman.h>

#include "base/check.h"
#include "base/lock.h"
#include "base/page.h"
#include "driver/eventpool.h"
#include "model/copies.h"
#include "model/copy_index.h"
#include "model/model.h"

sg_lock_t sg_model_lock = SG_LOCK_INIT;

static struct sg_copy *slots;
static uint32_t *free_stack, *active;
static uint32_t nslots, nfree, nactive;
static uint64_t guarded_total;

static void *map_zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int sg_copies_init(long max_pending)
{
    nslots = (uint32_t)max_pending;
    slots = map_zeroed(nslots * sizeof *slots);
    free_stack = map_zeroed(nslots * sizeof *free_stack);
    active = map_zeroed(nslots * sizeof *active);
    if (!slots || !free_stack || !active || sg_copy_index_init(nslots) < 0)
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

/* ---- the transitions (copies.h) ---- */
#define LOCKED() SG_DCHECK_HELD(&sg_model_lock)

void sg_copy_claim(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state != SG_COPY_FREE);
    c->settling = 0;
    c->state = SG_COPY_HANDLING;
}

int sg_copy_begin_handling(struct sg_copy *c)
{
    LOCKED();
    int prior = c->state;
    SG_DCHECK(prior != SG_COPY_FREE);
    c->state = SG_COPY_HANDLING;
    return prior;
}

void sg_copy_end_handling(struct sg_copy *c, int prior)
{
    LOCKED();
    SG_DCHECK(c->state == SG_COPY_HANDLING);
    SG_DCHECK(prior == SG_COPY_ACTIVE || prior == SG_COPY_HANDLING);
    c->state = prior;
}

void sg_copy_settle_start(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state == SG_COPY_ACTIVE);
    c->state = SG_COPY_HANDLING;
    c->settling = 1;
}

void sg_copy_settle_stop(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state == SG_COPY_HANDLING);
    c->settling = 0;
    c->observed = 1;
}

void sg_copy_stay_unguarded(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state != SG_COPY_FREE);
    c->state = SG_COPY_ACTIVE;
    c->settling = 0;
    c->unguarded = 1;
}

void sg_copy_mark_unguarded(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state != SG_COPY_FREE);
    c->unguarded = 1;
}

void sg_copy_mark_guarded(struct sg_copy *c)
{
    LOCKED();
    SG_DCHECK(c->state != SG_COPY_FREE);
    c->unguarded = 0;
}

struct sg_copy *sg_copies_alloc(uintptr_t pg_lo, uintptr_t pg_hi)
{
    LOCKED();
    if (nfree == 0)
        return NULL;
    uint32_t slot = free_stack[--nfree];
    struct sg_copy *c = &slots[slot];
    SG_DCHECK(c->state == SG_COPY_FREE);
    c->state = SG_COPY_ACTIVE;
    c->settling = 0;
    c->unguarded = 0;
    c->observed = 0;
    c->active_pos = nactive;
    active[nactive++] = slot;
    c->pg_lo = pg_lo, c->pg_hi = pg_hi;
    sg_copy_index_insert(slot, pg_lo, pg_hi);
    guarded_total++;
    return c;
}

SG_REQUIRES(sg_model_lock) static void slot_free(struct sg_copy *c)
{
    SG_DCHECK(c->state != SG_COPY_FREE);
    sg_copy_index_remove((uint32_t)(c - slots));
    uint32_t pos = c->active_pos, last = active[--nactive];
    active[pos] = last;
    slots[last].active_pos = pos;
    c->state = SG_COPY_FREE;
    free_stack[nfree++] = (uint32_t)(c - slots);
}

void sg_copy_forget(struct sg_copy *c)
{
    LOCKED();
    sg_event_pool_put(c->stream.ctx, c->event);
    c->event = NULL;
    slot_free(c);
}

uint32_t sg_copies_active_count(void)
{
    return __atomic_load_n(&nactive, __ATOMIC_RELAXED);
}

struct sg_copy *sg_copies_active_at(uint32_t i)
{
    return &slots[active[i]];
}

struct overlap_call {
    void (*fn)(struct sg_copy *, void *);
    void *arg;
};

static void call_for_slot(uint32_t slot, void *arg)
{
    struct overlap_call *call = arg;
    call->fn(&slots[slot], call->arg);
}

void sg_copies_overlapping(uintptr_t lo, uintptr_t hi, void (*fn)(struct sg_copy *, void *),
                           void *arg)
{
    struct overlap_call call = { fn, arg };
    sg_copy_index_each(lo, hi, call_for_slot, &call);
}

struct find {
    uintptr_t addr;
    int is_write, page_guarded;
    struct sg_copy *best;
};

SG_REQUIRES(sg_model_lock) static void consider(struct sg_copy *c, void *arg)
{
    struct find *f = arg;
    f->page_guarded = 1;
    if (!sg_copy_touches(c, f->addr, f->addr + 1))
        return;
    /* A read of an H2D source is fine: it is a write that conflicts. */
    int conflicts = c->guard == SG_GUARD_NO_ACCESS || f->is_write;
    if (conflicts && (!f->best || sg_copy_unclaimed(c)))
        f->best = c;
}

struct sg_copy *sg_copies_find(uintptr_t addr, int is_write, int *page_guarded)
{
    LOCKED();
    struct find f = { addr, is_write, 0, NULL };
    uintptr_t page = sg_page_down(addr);
    sg_copies_overlapping(page, page + sg_page_size, consider, &f);
    *page_guarded = f.page_guarded;
    return f.best;
}

/* Not analysed: the child's only thread needs no lock (it reset the one
 * the parent's thread held, base/lock.h), and open is the caller's. */
SG_NO_THREAD_SAFETY_ANALYSIS
void sg_copy_table_after_fork_child(void (*open)(uintptr_t lo, uintptr_t hi))
{
    uint32_t n = nactive;
    nactive = 0;
    sg_copy_index_clear();
    for (uint32_t i = 0; i < n; i++) {
        struct sg_copy *c = &slots[active[i]];
        open(c->pg_lo, c->pg_hi);
        c->state = SG_COPY_FREE;
        c->event = NULL;
    }
    nfree = nslots;
    for (uint32_t i = 0; i < nslots; i++)
        free_stack[i] = nslots - 1 - i;
}
