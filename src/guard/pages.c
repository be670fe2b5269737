/* SPDX-License-Identifier: Apache-2.0 */
/* Turning the set of active copies into page protections. A range is cut at
 * every edge of an overlapping copy; each piece gets the strictest
 * protection among the copies over it (PROT_NONE & PROT_READ & RW, as bit
 * masks, is the intersection), or its normal protection when none is left.
 * Pieces that end alike are merged into one mprotect call, which also keeps
 * the number of kernel mappings down. Runs in the fault handler too: only
 * stack memory. */
#include "config.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/stats.h"
#include "guard/guard.h"
#include "model/copies.h"
#include "model/model.h"
#include "model/sync.h"

#define MAX_EDGES 256

struct edges {
    uintptr_t lo, hi;
    int n, overflow;
    uintptr_t at[MAX_EDGES];
};

static void add_edge(void *arg, uintptr_t a)
{
    struct edges *e = arg;
    if (a <= e->lo || a >= e->hi)
        return;
    if (e->n == MAX_EDGES) {
        e->overflow = 1;
        return;
    }
    e->at[e->n++] = a;
}

SG_REQUIRES(sg_model_lock) static void collect_edges(struct sg_copy *c, void *arg)
{
    if (c->unguarded)
        return;
    add_edge(arg, c->pg_lo);
    add_edge(arg, c->pg_hi);
}

static void sort_edges(struct edges *e)
{
    for (int i = 1; i < e->n; i++) /* few edges: insertion sort */
        for (int j = i; j > 0 && e->at[j - 1] > e->at[j]; j--) {
            uintptr_t t = e->at[j];
            e->at[j] = e->at[j - 1], e->at[j - 1] = t;
        }
}

struct piece {
    uintptr_t lo, hi;
    int prot;
    int sync; /* a page holding a lock's word: never made inaccessible */
};

SG_REQUIRES(sg_model_lock) static void restrict_prot(struct sg_copy *c, void *arg)
{
    struct piece *p = arg;
    if (!c->unguarded && c->pg_lo <= p->lo && c->pg_hi >= p->hi)
        p->prot &= c->guard != SG_GUARD_READ_ONLY && !p->sync ? PROT_NONE : PROT_READ;
}

SG_REQUIRES(sg_model_lock) static int piece_prot(uintptr_t lo, uintptr_t hi)
{
    struct piece p = { lo, hi, sg_guard_normal_prot(lo), sg_guard_is_sync_page(lo) };
    if (!sg_guard_in_window(lo))
        sg_copies_overlapping(lo, hi, restrict_prot, &p);
    return p.prot;
}

int sg_protect(uintptr_t lo, size_t len, int prot)
{
    unsigned long t0 = sg_now_ns();
    int rc = (int)syscall(SYS_mprotect, lo, len, prot);
    sg_stat_since(SG_STAT_mprotect_ns, t0);
    sg_stat_add(SG_STAT_mprotect_calls, 1);
    return rc;
}

unsigned long sg_protect_epoch(void)
{
    return sg_stat_get(SG_STAT_mprotect_calls);
}

/* ---- when the kernel refuses a split ----
 * Opening part of a guarded mapping splits it, which the kernel refuses
 * (ENOMEM) when the process is at its limit on mappings (guard/maps.c).
 * Pages left closed with no copy guarding them would crash the program's
 * next access, so syncguard opens more instead: every guard that shares a
 * mapping with the range, i.e. the range grown over each guarded copy that
 * overlaps or touches it. The whole of those mappings then changes, and
 * merges with its neighbours: no split, fewer mappings. Their copies stay
 * active but unguarded (a race on them is missed, never a false one). */
struct grow {
    uintptr_t lo, hi;
    int grew;
};

SG_REQUIRES(sg_model_lock) static void grow_over(struct sg_copy *c, void *arg)
{
    struct grow *g = arg;
    if (c->unguarded)
        return;
    if (c->pg_lo < g->lo)
        g->lo = c->pg_lo, g->grew = 1;
    if (c->pg_hi > g->hi)
        g->hi = c->pg_hi, g->grew = 1;
}

SG_REQUIRES(sg_model_lock) static void drop_guard(struct sg_copy *c, void *arg)
{
    (void)arg;
    if (!c->unguarded)
        sg_stat_add(SG_STAT_guards_dropped_maps, 1);
    sg_copy_mark_unguarded(c);
}

SG_REQUIRES(sg_model_lock) static int open_around(uintptr_t lo, uintptr_t hi)
{
    struct grow g = { lo, hi, 1 };
    while (g.grew) {
        g.grew = 0;
        sg_copies_overlapping(g.lo - sg_page_size, g.hi + sg_page_size, grow_over, &g);
    }
    sg_copies_overlapping(g.lo, g.hi, drop_guard, NULL);
    /* Each piece its normal protection: the program's own spans cut it. */
    struct edges e = { .lo = g.lo, .hi = g.hi };
    sg_guard_edges(g.lo, g.hi, add_edge, &e);
    sort_edges(&e);
    int rc = 0;
    for (int i = 0; i <= e.n; i++) {
        uintptr_t a = i == 0 ? g.lo : e.at[i - 1];
        uintptr_t b = i == e.n ? g.hi : e.at[i];
        if (a < b)
            rc |= sg_protect(a, b - a, sg_guard_normal_prot(a));
    }
    return rc;
}

/* sg_protect, and open_around when the kernel refuses the split. */
SG_REQUIRES(sg_model_lock) static int protect_or_open(uintptr_t lo, uintptr_t hi, int prot)
{
    if (sg_protect(lo, hi - lo, prot) == 0)
        return 0;
    return errno == ENOMEM ? open_around(lo, hi) : -1;
}

int sg_guard_update(uintptr_t lo, uintptr_t hi)
{
    struct edges e = { .lo = lo, .hi = hi };
    sg_copies_overlapping(lo, hi, collect_edges, &e);
    sg_guard_edges(lo, hi, add_edge, &e);
    if (e.overflow) {
        /* Too many copies over one range for one pass: halve it. */
        uintptr_t mid = sg_page_down(lo + (hi - lo) / 2);
        if (mid <= lo)
            mid = lo + sg_page_size;
        return sg_guard_update(lo, mid) | sg_guard_update(mid, hi);
    }
    sort_edges(&e);
    int rc = 0;
    uintptr_t run_lo = lo;
    int run_prot = -1;
    for (int i = 0; i <= e.n; i++) {
        uintptr_t a = i == 0 ? lo : e.at[i - 1];
        uintptr_t b = i == e.n ? hi : e.at[i];
        if (a >= b)
            continue;
        int prot = piece_prot(a, b);
        if (prot != run_prot && run_prot >= 0) {
            rc |= protect_or_open(run_lo, a, run_prot);
            run_lo = a;
        }
        run_prot = prot;
    }
    if (run_prot >= 0)
        rc |= protect_or_open(run_lo, hi, run_prot);
    return rc ? -1 : 0;
}

int sg_guard_window_open(uintptr_t lo, uintptr_t hi, int guarded)
{
    int added = sg_guard_window_add(lo, hi);
    if (added > 0 && guarded)
        sg_guard_update(lo, hi);
    return added < 0 ? -1 : 0;
}

void sg_guard_window_close(uintptr_t lo, uintptr_t hi)
{
    if (sg_guard_window_remove(lo, hi))
        sg_guard_update(lo, hi);
}

/* A program may protect its own pinned memory; syncguard must then keep
 * that protection when it opens a guard, and must not lose a guard to the
 * program's call. So the program's request is applied, remembered as the
 * pages' normal protection if the kernel took it, and the guards of copies
 * still in flight are applied again on top. */
int sg_guard_program_mprotect(uintptr_t lo, size_t len, int prot)
{
    uintptr_t hi = sg_page_up(lo + len);
    sg_lock(&sg_model_lock);
    int rc = sg_protect(lo, len, prot);
    int saved_errno = errno;
    /* A call the kernel refused changed nothing: nothing to keep. */
    if (rc == 0) {
        sg_guard_program_prot(lo, hi, prot);
        if (sg_observe_needed())
            sg_guard_update(lo, hi);
    }
    sg_unlock(&sg_model_lock);
    errno = saved_errno;
    return rc;
}
