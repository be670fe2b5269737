/* SPDX-License-Identifier: Apache-2.0 */
/* The host observed work complete: the copies the observation covers are
 * released, and its site is kept for reports. */
#include "config.h"

#include "base/lock.h"
#include "capture/stack.h"
#include "devmem/devmem.h"
#include "life/life.h"

void sg_observe_if(int ok, struct sg_vc *vc, struct sg_sync_site *site)
{
    if (ok && (site || vc->n)) {
        if (site) { /* outside the lock: the stack capture is the slow part */
            site->tid = sg_gettid();
            site->npcs = sg_stack_capture(site->pcs, SG_SYNC_FRAMES);
        }
        sg_lock(&sg_model_lock);
        if (site)
            sg_sync_remember(site);
        if (vc->n) {
            sg_copies_release_covered(vc);
            sg_gates_passed_covered(vc);
            sg_devmem_observed(vc);
        }
        sg_unlock(&sg_model_lock);
    }
    sg_vc_free(vc);
}

void sg_sync_op_end(struct sg_sync_op *op, int ok)
{
    /* A synchronous copy that returned is itself complete, not only what
     * came before it: device memory it read or wrote (devmem/) is done
     * with. Its place is known once the driver accepted it. Only for
     * devmem/: another thread's guarded copy may have taken an earlier
     * place on the stream while this one was in the driver, and must not
     * be released by it. */
    if (ok && op->site.target == SG_SYNC_COPY && op->seq && sg_devmem_active())
        sg_vc_raise(&op->covered, op->site.stream.idx, op->seq);
    sg_observe_if(ok, &op->covered, &op->site);
}
