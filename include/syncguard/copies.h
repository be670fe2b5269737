/* In-flight copies: one slot per guarded host range of an asynchronous
 * copy. The table lives in memory mapped at start-up so that the fault
 * handler can search and release slots without allocating. */
#ifndef SYNCGUARD_COPIES_H
#define SYNCGUARD_COPIES_H

#include <cuda.h>
#include <stdint.h>

#include "syncguard/model.h"
#include "syncguard/python.h"

#define SG_MAX_FRAMES 64

enum sg_guard_kind {
    SG_GUARD_NO_ACCESS, /* device writes the host range: D2H destination */
    SG_GUARD_READ_ONLY, /* device reads the host range: H2D source */
};

/* The host side of a 2D/3D copy: rows of width bytes, pitch bytes apart,
 * height rows per slice, slices slice_rows rows apart. A linear copy is one
 * row (width = pitch = size, height = slice_rows = depth = 1). */
struct sg_shape {
    size_t width, pitch;
    size_t height, slice_rows, depth;
};

/* The extent of a shape in bytes. */
size_t sg_shape_extent(const struct sg_shape *s);
/* A linear shape of n bytes. */
struct sg_shape sg_shape_linear(size_t n);

enum sg_copy_state { SG_COPY_FREE, SG_COPY_ACTIVE, SG_COPY_HANDLING };

struct sg_copy {
    int state;
    /* HANDLING only because a thread settles its page, and no observation
     * has covered it since: an access by another thread meanwhile is a
     * race nobody else reports. */
    unsigned char settling;
    uint64_t id;
    uintptr_t base; /* the copy's host bytes start here... */
    size_t size;    /* ...and end within size bytes (the extent) */
    struct sg_shape shape; /* which bytes of the extent are the copy's */
    uintptr_t pg_lo, pg_hi; /* the pages they lie on */
    int guard;              /* enum sg_guard_kind */
    const char *api;        /* the entry point, for reports */
    struct sg_stream_info stream;
    uint64_t seq; /* position on its stream */
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

/* Whether a conflicting access to c now is a race for the accessing thread
 * to report: c is active, or another thread is only settling its page and
 * no observation has covered c since. Lock held. */
static inline int sg_copy_unclaimed(const struct sg_copy *c)
{
    return c->state == SG_COPY_ACTIVE || c->settling;
}

struct sg_copy_request {
    const char *api;
    CUstream stream;
    int per_thread; /* the entry point was a _ptsz/_ptds variant */
    uintptr_t base;
    struct sg_shape shape;
    int guard;
    const struct sg_pyframe *py; /* the Python stack at enqueue, if any */
    int npy;
};

/* Maps the table; called once from sg_init. */
int sg_copies_init(long max_pending);

/* Guards the host range of a copy that the driver has just accepted (and
 * will run: not one recorded by a stream capture). Normal context; takes
 * sg_model_lock. pcs: the enqueue stack. */
void sg_copy_track(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs);

/* ---- with sg_model_lock held (safe in the fault handler) ---- */
/* The copy whose host bytes include addr and forbid the access, preferring
 * one whose race is still unclaimed (sg_copy_unclaimed); *page_guarded tells
 * whether addr's page is guarded. */
struct sg_copy *sg_copies_find(uintptr_t addr, int is_write, int *page_guarded);
/* Releases a copy: its slot is freed and its pages get the protection the
 * remaining copies need. The caller must not use c afterwards. */
void sg_copy_release(struct sg_copy *c);
/* Calls fn for each active copy overlapping [lo, hi). */
void sg_copies_overlapping(uintptr_t lo, uintptr_t hi, void (*fn)(struct sg_copy *, void *),
                           void *arg);
/* Releases every active copy that vc covers. */
void sg_copies_release_covered(const struct sg_vc *vc);
uint64_t sg_copies_guarded_total(void);

/* In a forked child: unprotect every guarded page and forget all copies. */
void sg_copies_after_fork_child(void);

#endif
