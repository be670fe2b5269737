/* SPDX-License-Identifier: Apache-2.0 */
/* In-flight copies: one slot per guarded host range of an asynchronous
 * copy. The table lives in memory mapped at start-up so that the fault
 * handler can search and release slots without allocating. */
#ifndef SG_MODEL_COPIES_H
#define SG_MODEL_COPIES_H

#include <cuda.h>
#include <stdint.h>

#include "capture/python.h"
#include "model/copy_desc.h"
#include "model/model.h"
#include "model/shape.h"

#define SG_MAX_FRAMES 64

enum sg_guard_kind {
    SG_GUARD_NO_ACCESS, /* device writes the host range: D2H destination */
    SG_GUARD_READ_ONLY, /* device reads the host range: H2D source */
    /* device writes a word the host may poll (cuStreamWriteValue): no
     * access, so that reads are seen, but only writes conflict; a read
     * once the write has landed observes its stream up to it
     * (fault/flag.c) */
    SG_GUARD_FLAG,
};

/* What device work a guarded range belongs to, for reports. */
enum sg_origin {
    SG_ORIGIN_COPY,   /* a copy (cuMemcpy*Async, a graph's memcpy node) */
    SG_ORIGIN_MEMSET, /* an asynchronous memset of pinned memory */
    SG_ORIGIN_KERNEL, /* a kernel given a pointer into it (kernel: its name) */
    SG_ORIGIN_MEMOP,  /* a stream memory operation writing it (cuStreamWriteValue) */
};

/* A slot's state. FREE: no copy. ACTIVE: a copy in flight, guarded
 * (unless unguarded), whose race the first thread to touch it reports.
 * HANDLING: a thread handles it without the lock (reports it, waits for
 * it): nobody releases it meanwhile but that thread, or an observation
 * that covers it once the thread is done. The changes are the transitions
 * below; nothing else writes state, settling or unguarded. */
enum sg_copy_state { SG_COPY_FREE, SG_COPY_ACTIVE, SG_COPY_HANDLING };

struct sg_copy {
    int state SG_GUARDED_BY(sg_model_lock); /* enum sg_copy_state */
    /* HANDLING only because a thread settles its page, and no observation
     * has covered it since: an access by another thread meanwhile is a
     * race nobody else reports. */
    unsigned char settling SG_GUARDED_BY(sg_model_lock);
    /* Its guard was opened early (guard/pages.c: the kernel refused the
     * split that opening a neighbour needed; fault/: an access let through
     * for good; work/hostfn.c: a host function the copy follows touched
     * it): active, but no longer protecting its pages. */
    unsigned char unguarded SG_GUARDED_BY(sg_model_lock);
    /* HANDLING, and an observation covered it meanwhile: the handling
     * thread releases it when done (fault/kernel_access.c), rather than
     * giving it back ACTIVE, still guarded, to be taken for a race. */
    unsigned char observed SG_GUARDED_BY(sg_model_lock);
    uint64_t id;
    SG_COPY_DESC; /* base, shape, guard, api, kernel, origin, value: model/copy_desc.h */
    size_t size;  /* the extent of shape: the host bytes end within size bytes of base */
    uintptr_t pg_lo, pg_hi; /* the pages they lie on (set by sg_copies_alloc: indexed) */
    /* SG_ORIGIN_KERNEL, kernel_args=1 (fault/kernel_access.c): the host's
     * first read of the range, let through once the kernel completed (or
     * found complete), whether the kernel was still running then, and
     * whether the read went through unwaited (the short wait ran out). */
    uintptr_t probe_addr;
    unsigned char probe_in_flight;
    unsigned char probe_unwaited;
    /* The driver's access inside a call not ordered after it was reported
     * (fault/resolve.c sg_report_in_call): once per copy. */
    unsigned char reported_in_call;
    struct sg_stream_info stream;
    uint64_t seq; /* position on its stream */
    struct sg_clock after; /* what it waits for: its stream's clock at enqueue */
    uint64_t sync_serial; /* the host's last observation before the copy */
    CUevent event; /* recorded right after the copy; NULL if that failed */
    long tid;
    int npcs;
    uintptr_t pcs[SG_MAX_FRAMES];
    int npy;
    struct sg_pyframe py[SG_MAX_PYFRAMES];
    uint32_t active_pos;
};


/* The first byte in [lo, hi) that c transfers, or 0 if every byte there
 * lies outside c or in a gap between its rows or slices: where an access
 * of [lo, hi) meets c. Arithmetic only (safe in the fault handler). */
uintptr_t sg_copy_first_touched(const struct sg_copy *c, uintptr_t lo, uintptr_t hi);

/* Whether an access of [lo, hi) touches a byte c transfers: what decides
 * a conflict. A page guarded for c may hold bytes c does not touch. */
static inline int sg_copy_touches(const struct sg_copy *c, uintptr_t lo, uintptr_t hi)
{
    return sg_copy_first_touched(c, lo, hi) != 0;
}

/* ---- a copy's state: the transitions, with sg_model_lock held ----
 * Each checks (SG_DCHECK: --enable-debug) that the lock is held and that
 * the copy is in the state it leaves. A slot in use is ACTIVE or HANDLING.
 *
 *   FREE     -> ACTIVE    sg_copies_alloc (guarded, not settling)
 *   ACTIVE   -> HANDLING  sg_copy_settle_start (settling)
 *   in use   -> HANDLING  sg_copy_claim (not settling), sg_copy_begin_handling
 *   HANDLING -> prior     sg_copy_end_handling
 *   HANDLING              sg_copy_settle_stop (no longer settling; observed)
 *   in use   -> ACTIVE    sg_copy_stay_unguarded (not settling, unguarded)
 *   in use                sg_copy_mark_unguarded, sg_copy_mark_guarded
 *   in use   -> FREE      sg_copy_forget (and every slot, in a forked child)
 */

/* Whether c is a copy in flight (ACTIVE or HANDLING). */
static inline int sg_copy_in_use(const struct sg_copy *c) SG_REQUIRES(sg_model_lock)
{
    return c->state != SG_COPY_FREE;
}

/* Whether a conflicting access to c now is a race for the accessing thread
 * to report: c is active, or another thread is only settling its page and
 * no observation has covered c since. */
static inline int sg_copy_unclaimed(const struct sg_copy *c) SG_REQUIRES(sg_model_lock)
{
    return c->state == SG_COPY_ACTIVE || c->settling;
}

/* This thread handles c, its race (if any) now this thread's to report:
 * HANDLING, no longer only settling. c in use. */
void sg_copy_claim(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* This thread handles c for a while (a bounded wait, the lock given back
 * meanwhile) and then gives it back as it was: HANDLING, settling as it
 * was. c in use; returns the state to give to sg_copy_end_handling. */
int sg_copy_begin_handling(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* c (HANDLING, by this thread) back to prior, what sg_copy_begin_handling
 * returned. */
void sg_copy_end_handling(struct sg_copy *c, int prior) SG_REQUIRES(sg_model_lock);
/* This thread settles c's page (waits for it, reports nothing): ACTIVE to
 * HANDLING, settling. */
void sg_copy_settle_start(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* An observation covered c while a thread handles it: an access now is no
 * race, and the handling thread is to release it. c HANDLING. */
void sg_copy_settle_stop(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* c stays in flight, nobody handling it, its guard opened for good (an
 * access let through unchecked: a race on it is missed, never made up):
 * ACTIVE, not settling, unguarded. c in use; its pages are the caller's to
 * update. */
void sg_copy_stay_unguarded(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* c's guard opened (unguarded) or given back (guarded), its state kept. c
 * in use; its pages are the caller's to update. */
void sg_copy_mark_unguarded(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
void sg_copy_mark_guarded(struct sg_copy *c) SG_REQUIRES(sg_model_lock);

/* Maps the table; called once at start-up. */
int sg_copies_init(long max_pending);

/* ---- with sg_model_lock held (safe in the fault handler) ---- */
/* The copy whose host bytes include addr and forbid the access, preferring
 * one whose race is still unclaimed (sg_copy_unclaimed); *page_guarded tells
 * whether addr's page is guarded. */
struct sg_copy *sg_copies_find(uintptr_t addr, int is_write, int *page_guarded)
    SG_REQUIRES(sg_model_lock);
/* A free slot, now ACTIVE (guarded, not settling) on the pages [pg_lo,
 * pg_hi) (its other fields are the caller's to fill); NULL when the table
 * is full. Counts a guarded copy. */
struct sg_copy *sg_copies_alloc(uintptr_t pg_lo, uintptr_t pg_hi) SG_REQUIRES(sg_model_lock);
/* Frees a copy's slot (in use: now FREE) and gives its event back; its
 * pages are the caller's to update. The caller must not use c afterwards. */
void sg_copy_forget(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* The copies in use: count and the i-th (i < count; forgetting one moves
 * the last into its place). The count is also read without the lock. */
uint32_t sg_copies_active_count(void);
struct sg_copy *sg_copies_active_at(uint32_t i) SG_REQUIRES(sg_model_lock);
/* Calls fn for each copy in use overlapping [lo, hi); fn runs with the
 * lock held. */
void sg_copies_overlapping(uintptr_t lo, uintptr_t hi, void (*fn)(struct sg_copy *, void *),
                           void *arg) SG_REQUIRES(sg_model_lock);
uint64_t sg_copies_guarded_total(void);

/* In a forked child (its only thread, the model lock reset): forget every
 * copy, after open(lo, hi) has been called for the pages of each (with none
 * left in the table). */
void sg_copy_table_after_fork_child(void (*open)(uintptr_t lo, uintptr_t hi));

#endif
