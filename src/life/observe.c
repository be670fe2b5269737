/* SPDX-License-Identifier: Apache-2.0 */
/* The host observed work complete: the copies the observation covers are
 * released, and its site is kept for reports. */
#include "config.h"

#include "base/lock.h"
#include "capture/stack.h"
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
        }
        sg_unlock(&sg_model_lock);
    }
    sg_vc_free(vc);
}

void sg_sync_op_end(struct sg_sync_op *op, int ok)
{
    sg_observe_if(ok, &op->covered, &op->site);
}
