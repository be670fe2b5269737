/* SPDX-License-Identifier: Apache-2.0 */
/* Inside devmem/: the shadow of device memory (shadow.c), the operations
 * it names (ops.c) and the check of a new operation against them
 * (check.c). Everything here runs with sg_model_lock held. */
#ifndef SG_DEVMEM_DEVMEM_INT_H
#define SG_DEVMEM_DEVMEM_INT_H

#include <stdint.h>

#include "capture/python.h"
#include "devmem/devmem.h"
#include "model/copies.h"

/* One access in the shadow: operation op (ops.c), seq-th on stream. */
struct sg_dev_stamp {
    uint32_t stream;
    uint64_t seq;
    uint64_t op; /* 0: none */
};

#define SG_DEV_READERS 4 /* reads kept per range since its last write: one per stream */

/* What an access of a new operation meets: an earlier one of another
 * stream that it does not follow. */
enum sg_dev_clash { SG_DEV_RAW, SG_DEV_WAR, SG_DEV_WAW };
typedef void (*sg_dev_clash_fn)(enum sg_dev_clash kind, uintptr_t at, const struct sg_dev_stamp *old,
                                void *arg);

/* Calls fn for every stamp in [lo, hi) that an access (write or not) on
 * stream, which follows what covered says, conflicts with. */
void sg_shadow_clashes(uintptr_t lo, uintptr_t hi, int write, uint32_t stream,
                       const struct sg_vc *covered, sg_dev_clash_fn fn, void *arg)
    SG_REQUIRES(sg_model_lock);
/* The access happened: a write replaces the range's writer and readers, a
 * read joins its readers (one per stream: the latest). 0, or -1 when the
 * shadow is out of memory (it then forgets everything: races can be
 * missed, never invented). */
int sg_shadow_apply(uintptr_t lo, uintptr_t hi, int write, const struct sg_dev_stamp *st)
    SG_REQUIRES(sg_model_lock);
void sg_shadow_forget(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
size_t sg_shadow_ranges(void) SG_REQUIRES(sg_model_lock);
void sg_shadow_clear(void) SG_REQUIRES(sg_model_lock);

/* An operation, kept for reports while recent (a ring: an old one's stacks
 * may be gone, which a report then says). */
struct sg_dev_opinfo {
    uint64_t id;
    const char *api;
    const char *kernel;
    unsigned char origin;
    struct sg_stream_info stream;
    uint64_t seq;
    long tid;
    int n;
    struct sg_dev_access acc[SG_DEV_ACCESSES]; /* its accesses, for reports */
    int npcs;
    uintptr_t pcs[SG_MAX_FRAMES];
    int npy;
    struct sg_pyframe py[SG_MAX_PYFRAMES];
};
/* A new operation's record, to be filled; its id is set. */
struct sg_dev_opinfo *sg_dev_op_new(void) SG_REQUIRES(sg_model_lock);
/* The record of op id, or NULL when the ring has reused it. */
const struct sg_dev_opinfo *sg_dev_op_find(uint64_t id) SG_REQUIRES(sg_model_lock);

#endif
