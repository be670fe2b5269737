/* SPDX-License-Identifier: Apache-2.0 */
/* Host accesses to what a kernel was given (fault/kernel_access.h). Runs in
 * the fault handler: no allocation; the bounded wait happens without the
 * model lock, on a copy marked HANDLING so that nobody releases it
 * meanwhile. */
#include "config.h"

#include "base/common.h"
#include "base/lock.h"
#include "base/options.h"
#include "base/stats.h"
#include "driver/driver.h"
#include "fault/kernel_access.h"
#include "fault/resolve.h"
#include "fault/wait.h"
#include "life/life.h"
#include "model/kernel_kinds.h"
#include "model/model.h"

/* The allocation is a signalling channel: remembered for later launches,
 * and this launch's range is opened (still pending, unguarded); the kernel
 * is one that signals. */
SG_REQUIRES(sg_model_lock) static enum sg_kernel_verdict open_channel(struct sg_copy *c)
{
    sg_kernel_kind_learn(c->kernel, SG_KERNEL_SIGNALS);
    if (!sg_pinned_is_channel(c->base)) {
        sg_pinned_mark_channel(c->base);
        sg_stat_add(SG_STAT_kernel_channels, 1);
    }
    sg_copy_leave_unguarded(c);
    return SG_KERNEL_OPENED;
}

/* Waits for the kernel at most bound_ms, without the lock. 1 when it
 * completed; -1 when the copy was released or replaced meanwhile, or
 * observed by another thread meanwhile (then released here). */
SG_REQUIRES(sg_model_lock) static int wait_kernel_bounded(struct sg_copy *c, int bound_ms)
{
    if (!c->event || bound_ms <= 0)
        return 0;
    uint64_t id = c->id;
    int prior = sg_copy_begin_handling(c);
    sg_unlock(&sg_model_lock);
    int depth = sg_in_syncguard;
    sg_in_syncguard = 0; /* the thread is the program's while it waits */
    int done = sg_wait_bounded(c->event, bound_ms);
    sg_in_syncguard = depth;
    sg_lock(&sg_model_lock);
    if (c->id != id || c->state != SG_COPY_HANDLING)
        return -1;
    if (c->observed) { /* the host observed the launch meanwhile */
        sg_copy_release(c);
        return -1;
    }
    sg_copy_end_handling(c, prior);
    return done;
}

/* The first read of this launch's range. A kernel known to leave results
 * is waited for as long as any access that may wait for its own thread
 * (wait_bound_ms: still running then, this launch waits for the host); an
 * unknown one only briefly (kernel_read_wait_ms), since it may wait for
 * this very thread: the read then goes through unwaited, and the next
 * access decides. */
SG_REQUIRES(sg_model_lock)
static enum sg_kernel_verdict first_read(struct sg_copy *c, uintptr_t addr, enum sg_kernel_kind kind)
{
    int in_flight = !c->event || sg_driver()->cuEventQuery(c->event) == CUDA_ERROR_NOT_READY;
    int unwaited = 0;
    if (in_flight) {
        int knows_results = kind == SG_KERNEL_RESULTS;
        int done = wait_kernel_bounded(c, knows_results ? sg_opt.wait_bound_ms
                                                        : sg_opt.kernel_read_wait_ms);
        if (done < 0)
            return SG_KERNEL_OPENED; /* released meanwhile: look again */
        if (!done) {
            sg_stat_add(SG_STAT_waits_abandoned, 1);
            if (knows_results)
                return open_channel(c); /* this launch waits for the host */
            unwaited = 1;
        }
    }
    c->probe_addr = addr;
    c->probe_in_flight = (unsigned char)in_flight;
    c->probe_unwaited = (unsigned char)unwaited;
    sg_stat_add(SG_STAT_kernel_first_reads, 1);
    return SG_KERNEL_PASS;
}

enum sg_kernel_verdict sg_kernel_access(struct sg_copy *c, uintptr_t addr, int access)
{
    SG_DCHECK_HELD(&sg_model_lock);
    if (access == SG_ACCESS_FREE)
        return SG_KERNEL_RACE;
    if (access == SG_ACCESS_WRITE || sg_pinned_is_channel(c->base))
        return open_channel(c);
    enum sg_kernel_kind kind = sg_kernel_kind_of(c->kernel);
    if (kind == SG_KERNEL_SIGNALS) {
        /* Only this launch's range: the allocation may hold results for
         * other kernels. */
        sg_copy_leave_unguarded(c);
        return SG_KERNEL_OPENED;
    }
    if (!c->probe_addr)
        return first_read(c, addr, kind);
    if (c->probe_addr == addr)
        return open_channel(c); /* read again: a poll */
    sg_kernel_kind_learn(c->kernel, SG_KERNEL_RESULTS);
    return SG_KERNEL_RACE;
}
