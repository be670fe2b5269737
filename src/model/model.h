/* SPDX-License-Identifier: Apache-2.0 */
/* The synchronization model: which host memory is pinned, which copies are
 * in flight, and what the host has observed to be complete (happens-before
 * between the host and each stream, tracked with vector clocks). */
#ifndef SG_MODEL_MODEL_H
#define SG_MODEL_MODEL_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "base/lock.h"

/* The one lock around the synchronization model, the copy table and page
 * protections. Never held across a call that can block in the driver. */
extern sg_lock_t sg_model_lock;

/* ---- pinned host memory (model/pinned.c) ---- */
#define SG_PINNED_READ_ONLY 1u /* registered memory the host cannot write */
#define SG_PINNED_FOREIGN 2u   /* pinned outside the wrapped calls: learnt from the driver */
#define SG_PINNED_HUGE 4u      /* syncguard's own huge-page mapping, registered (huge_pinned) */
#define SG_PINNED_VIA_ALLOC_HOST 8u /* the program called cuMemAllocHost, not cuMemHostAlloc */
#define SG_PINNED_ALLOCATED 16u /* allocated for the program (not registered by it) */
/* Host and kernels signal through it (a flag or counter polled by one while
 * the other runs: fault/kernel_access.c): never guarded for a kernel again. */
#define SG_PINNED_CHANNEL 32u
/* Managed memory (cuMemAllocManaged, with managed_races): in the table so
 * that kernels' guards and the fault handler treat it as they treat pinned
 * memory; copies still take it for device memory (sg_host_kind). */
#define SG_PINNED_MANAGED 64u
/* A huge range keeps the program's cuMemHostAlloc flags above bit 8. */
#define SG_PINNED_ALLOC_FLAGS(f) ((unsigned)(f) << 8)
#define SG_PINNED_ALLOC_FLAGS_OF(f) ((unsigned)(f) >> 8)
/* One pinned range: [base, base+size) is pinned. */
struct sg_pin {
    uintptr_t base;
    size_t size;
    unsigned flags;
    uintptr_t driver_base; /* what the driver allocated (memhost.c may hand the program an
                            * address inside) */
    /* The context current when it was pinned (NULL: not known, a range
     * learnt from the driver): the driver frees its allocations and drops
     * its registrations when that context is torn down. */
    CUcontext ctx;
};
/* Enters a copy of *r. -1 when out of memory: the range stays untracked
 * (never guarded). */
int sg_pinned_add(const struct sg_pin *r);
/* Forgets the range starting at base, copied to *out unless NULL. 0 if
 * found. */
int sg_pinned_remove(uintptr_t base, struct sg_pin *out);
/* Whether [p, p+n) lies in one pinned range; its flags in *flags. */
int sg_pinned_lookup(uintptr_t p, size_t n, unsigned *flags);
/* Marks the range holding p (by its host address) SG_PINNED_CHANNEL. Takes
 * the ranges' own lock (after sg_model_lock is fine: signal-safe). */
void sg_pinned_mark_channel(uintptr_t p);
/* Whether the range holding p is marked SG_PINNED_CHANNEL. */
int sg_pinned_is_channel(uintptr_t p);
/* Whether any byte of the page-rounded [lo, hi) is pinned (fault handler:
 * a protection fault there that no copy explains may be a release race). */
int sg_pinned_touches(uintptr_t lo, uintptr_t hi);
/* Whether any byte of [lo, hi) lies in one of syncguard's huge blocks
 * (SG_PINNED_HUGE). No lock taken while nothing is pinned. */
int sg_pinned_touches_huge(uintptr_t lo, uintptr_t hi);
/* The same without the lock (a fault while this thread holds it): a best
 * guess if the thread was changing the ranges. */
int sg_pinned_touches_unlocked(uintptr_t lo, uintptr_t hi);
/* Size to ask the driver for so that n bytes fit on pages of their own
 * (isolate_pinned): the page-rounded size, plus a page to move a pool
 * block's start to a page boundary unless n is large enough for a mapping
 * of its own. 0: n as it is (too large to round). */
size_t sg_pinned_isolated_size(size_t n);
/* Lock-free snapshot count, for the hot path: no pinned memory, no work. */
int sg_pinned_any(void);
/* Changes with every allocation, free or alias the table learns: what was
 * looked up in it under one generation holds while it stays the same. */
uint64_t sg_pinned_generation(void);
/* The start of the pinned range holding p, in *base; 0 if there is one. */
int sg_pinned_base(uintptr_t p, uintptr_t *base);
/* The pinned range holding the byte at p: 1 with *base and *size, else 0
 * (no lock taken while nothing is pinned). */
int sg_pinned_range(uintptr_t p, uintptr_t *base, size_t *size);
/* A device address of its own for the pinned range at host_base
 * (cuMemHostGetDevicePointer's answer where it is not the host address);
 * forgotten with the range. */
void sg_pinned_alias_add(uintptr_t alias, size_t size, uintptr_t host_base);
/* sg_pinned_range for a byte reached by its host address or by a device
 * alias: *base and *size are the host range's. */
int sg_pinned_range_any(uintptr_t p, uintptr_t *base, size_t *size);
/* The host address of a device alias of a pinned range; p itself when it
 * is none. */
uintptr_t sg_pinned_unalias(uintptr_t p);
/* Up to max ranges, from the from-th on (in address order), into out;
 * returns how many. */
size_t sg_pinned_snapshot(size_t from, struct sg_pin *out, size_t max);

/* ---- what a host-side address is (model/hostkind.c) ---- */
enum sg_host_kind {
    SG_HOST_PAGEABLE, /* unknown to the driver: copies with it complete on return */
    SG_HOST_PINNED,   /* page-locked (tracked, or learnt from the driver): guarded */
    SG_HOST_MANAGED,  /* managed memory: asynchronous, not guarded */
    SG_HOST_DEVICE,   /* device memory */
};
/* What [p, p+n) is; page-locked memory the driver reports enters the
 * pinned table. Normal context (asks the driver). */
int sg_host_kind(uintptr_t p, size_t n);
/* Whether the driver (asked now, whatever the table says) knows the byte
 * at p as page-locked host memory. Normal context. */
int sg_host_still_pinned(uintptr_t p);
/* fork() with the ranges' own lock held (taken after sg_model_lock). */
void sg_pinned_before_fork(void);
void sg_pinned_after_fork_parent(void);
/* In the child: the lock freed before the child's clean-up looks ranges
 * up; then every range forgotten (the child must pin again). */
void sg_pinned_unlock_in_child(void);
void sg_pinned_after_fork_child(void);

/* ---- vector clocks (model/vclock.c) ---- */
struct sg_vc_entry {
    uint32_t stream;
    uint64_t seq;
};
struct sg_vc {
    uint32_t n, cap;
    struct sg_vc_entry *e;
};
uint64_t sg_vc_get(const struct sg_vc *vc, uint32_t stream);
void sg_vc_raise(struct sg_vc *vc, uint32_t stream, uint64_t seq);
void sg_vc_join(struct sg_vc *dst, const struct sg_vc *src);
void sg_vc_copy(struct sg_vc *dst, const struct sg_vc *src);
void sg_vc_free(struct sg_vc *vc);

/* A vector clock of fixed size, for the copy table (read in the fault
 * handler, which allocates nothing): partial when the clock it was taken
 * from had more entries, which are then unknown. */
#define SG_CLOCK_MAX 8
struct sg_clock {
    int n, partial;
    struct sg_vc_entry e[SG_CLOCK_MAX];
};
void sg_clock_set(struct sg_clock *out, const struct sg_vc *vc);
/* Raises stream's entry of c to seq (partial when there is no room). */
void sg_clock_raise(struct sg_clock *c, uint32_t stream, uint64_t seq);
/* Whether the clock is known to cover operation seq of stream. */
int sg_clock_covers(const struct sg_clock *after, uint32_t stream, uint64_t seq);

/* ---- streams and events (model/streams.c, model/events.c) ---- */
enum sg_stream_kind { SG_STREAM_USER, SG_STREAM_LEGACY, SG_STREAM_PER_THREAD };

struct sg_stream_info {
    uint32_t idx;       /* dense index, the vector-clock key */
    int kind;           /* enum sg_stream_kind */
    int blocking;       /* synchronizes with the legacy stream */
    CUstream handle;    /* as the driver accepts it from any thread */
    CUcontext ctx;
};

/* Everything below runs with sg_model_lock held. */

/* The stream a handle means in a call whose entry point is per_thread or
 * not; created on first sight. */
struct sg_stream *sg_stream_get(CUstream h, int per_thread) SG_REQUIRES(sg_model_lock);
void sg_stream_info(const struct sg_stream *s, struct sg_stream_info *out)
    SG_REQUIRES(sg_model_lock);
/* Enqueues a tracked operation: applies the legacy-stream rules, returns
 * the operation's sequence number on s. */
uint64_t sg_stream_enqueue(struct sg_stream *s) SG_REQUIRES(sg_model_lock);
/* What the host learns when everything enqueued on s so far is complete. */
void sg_stream_snapshot(struct sg_stream *s, struct sg_vc *out) SG_REQUIRES(sg_model_lock);
/* The same into a copy's fixed-size clock, with no allocation. */
void sg_stream_clock(struct sg_stream *s, struct sg_clock *out) SG_REQUIRES(sg_model_lock);
/* What an operation enqueued on s now would wait for (the legacy-stream
 * rules applied), without enqueuing one: a query or synchronize of the
 * legacy stream, or an operation not accepted by the driver yet. The
 * operation's own place would be *seq. */
void sg_stream_peek(struct sg_stream *s, struct sg_vc *out, uint64_t *seq)
    SG_REQUIRES(sg_model_lock);
/* Whether an operation enqueued on the stream a call names now would wait
 * for operation seq of stream idx (the legacy-stream rules applied). Looks
 * streams up without creating one (signal-safe); ctx is the current
 * context for the legacy and per-thread streams. */
int sg_stream_next_covers(CUstream h, int per_thread, CUcontext ctx, uint32_t idx, uint64_t seq)
    SG_REQUIRES(sg_model_lock);
/* cuStreamWaitEvent: later work on s follows the event's captured work. */
void sg_stream_wait_vc(struct sg_stream *s, const struct sg_vc *vc) SG_REQUIRES(sg_model_lock);
void sg_stream_created(CUstream h, unsigned flags, CUcontext ctx) SG_REQUIRES(sg_model_lock);
void sg_stream_destroyed(CUstream h) SG_REQUIRES(sg_model_lock);
/* The join of every stream of ctx (cuCtxSynchronize); NULL: of all. */
void sg_ctx_snapshot(CUcontext ctx, struct sg_vc *out) SG_REQUIRES(sg_model_lock);
/* Forget per-thread streams etc. in a forked child. */
void sg_streams_after_fork_child(void);

void sg_event_recorded(CUevent e, const struct sg_vc *captured) SG_REQUIRES(sg_model_lock);
/* The work an event stands for (empty if never recorded). */
void sg_event_snapshot(CUevent e, struct sg_vc *out) SG_REQUIRES(sg_model_lock);
void sg_event_destroyed(CUevent e) SG_REQUIRES(sg_model_lock);

#endif
