/* SPDX-License-Identifier: Apache-2.0 */
/* Device memory between streams (issue 30): which stream last wrote each
 * byte range of device memory and which read it since, as copies and
 * memsets say; an operation enqueued on a stream that does not follow an
 * earlier conflicting one (read after write, write after read, write after
 * write: happens-before from the vector clocks of model/) is a race. It is
 * reported before the driver sees the later operation, and by default
 * fixed there: the later stream is made to wait for the earlier one, so the
 * program computes with the data it meant to. Kernels enter once their
 * access sets are known (learn/); until then they are not seen. */
#ifndef SG_DEVMEM_DEVMEM_H
#define SG_DEVMEM_DEVMEM_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "base/thread_safety.h"
#include "model/model.h"

#define SG_DEV_ACCESSES 8 /* a copy has two; a kernel one per pointer argument, up to 8 */

struct sg_dev_access {
    uintptr_t lo, hi; /* device addresses, [lo, hi) */
    int write;
};

/* One device operation, as its shim describes it, from before the driver
 * call (sg_devmem_before) to after it (sg_devmem_after). */
struct sg_dev_op {
    const char *api;
    const char *kernel; /* a launch's kernel name (kept for good), or NULL */
    unsigned char origin; /* enum sg_origin (model/copies.h) */
    CUstream stream;
    int per_thread;
    int n;
    struct sg_dev_access acc[SG_DEV_ACCESSES];
    int tracked; /* set by sg_devmem_before: the op is followed */
};

/* Whether device memory is followed at all (device_races option, and a
 * first device operation seen): the model's stream bookkeeping must then
 * run whether or not any host copy is guarded. Lock-free. */
int sg_devmem_active(void);

/* Starts an op on stream s: a, b (NULL: none) are its accesses. Any
 * operand that is host memory (pinned, pageable, a mapped alias) is no
 * device memory and is left out. */
void sg_devmem_op_init(struct sg_dev_op *op, const char *api, int origin, CUstream s,
                       int per_thread);
void sg_devmem_op_add(struct sg_dev_op *op, CUdeviceptr p, size_t n, int write);

/* Before the driver call: reports every earlier operation the op
 * conflicts with and does not follow, and (device_races=1) makes its
 * stream wait for theirs. Normal context; takes sg_model_lock, calls the
 * driver without it. */
void sg_devmem_before(struct sg_dev_op *op) SG_EXCLUDES(sg_model_lock);
/* After it: ok, the driver accepted it and its accesses are remembered. */
void sg_devmem_after(const struct sg_dev_op *op, int ok) SG_EXCLUDES(sg_model_lock);

/* The host observed the work vc covers complete: later work of any
 * stream follows it. */
void sg_devmem_observed(const struct sg_vc *vc) SG_REQUIRES(sg_model_lock);
/* The allocation at p goes back to the driver (cuMemFree, cuMemFreeAsync):
 * what was known of its bytes is forgotten, so that the next allocation
 * there starts clean. A free and a reuse on another stream not ordered
 * after it are not followed yet. */
void sg_devmem_freeing(CUdeviceptr p) SG_EXCLUDES(sg_model_lock);

#endif
