/* SPDX-License-Identifier: Apache-2.0 */
/* A copy's end: released when an observation covers it (or the fault
 * handler has waited for it), its pages given the protection the remaining
 * copies need. */
#include "config.h"


#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "guard/guard.h"
#include "life/life.h"

void sg_copy_release(struct sg_copy *c)
{
    SG_DCHECK_HELD(&sg_model_lock);
    uintptr_t lo = c->pg_lo, hi = c->pg_hi;
    sg_copy_forget(c);
    sg_guard_update(lo, hi);
}

/* Page ranges whose guards one observation released, merged where they
 * touch, so that copies into neighbouring buffers (a batch and its labels)
 * are opened by one mprotect call, not one each. */
#define RELEASED_MAX 32

struct released {
    int n;
    uintptr_t lo[RELEASED_MAX], hi[RELEASED_MAX];
};

SG_REQUIRES(sg_model_lock) static void update_released(struct released *r)
{
    for (int i = 0; i < r->n; i++)
        sg_guard_update(r->lo[i], r->hi[i]);
    r->n = 0;
}

SG_REQUIRES(sg_model_lock) static void add_released(struct released *r, uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < r->n; i++)
        if (lo <= r->hi[i] && hi >= r->lo[i]) { /* overlapping or adjacent */
            r->lo[i] = lo < r->lo[i] ? lo : r->lo[i];
            r->hi[i] = hi > r->hi[i] ? hi : r->hi[i];
            return;
        }
    if (r->n == RELEASED_MAX)
        update_released(r);
    r->lo[r->n] = lo, r->hi[r->n] = hi;
    r->n++;
}

void sg_copies_release_covered(const struct sg_vc *vc)
{
    SG_DCHECK_HELD(&sg_model_lock);
    struct released r = { 0 };
    for (uint32_t i = 0; i < sg_copies_active_count();) {
        struct sg_copy *c = sg_copies_active_at(i);
        /* A copy the fault handler is synchronizing is released by it. */
        int covered = sg_vc_get(vc, c->stream.idx) >= c->seq;
        if (c->state == SG_COPY_HANDLING && covered)
            sg_copy_settle_stop(c); /* observed: an access now is no race */
        if (c->state == SG_COPY_ACTIVE && covered) {
            SG_VLOG(2, "copy #%llu observed complete\n", (unsigned long long)c->id);
            add_released(&r, c->pg_lo, c->pg_hi);
            sg_copy_forget(c); /* moves the last active slot into position i */
        } else {
            i++;
        }
    }
    update_released(&r);
}

/* In the forked child, whose only thread runs this without the model lock
 * (reset: preload/fork.c), as every clean-up there does: not analysed. */
SG_NO_THREAD_SAFETY_ANALYSIS static void open_pages(uintptr_t lo, uintptr_t hi)
{
    sg_guard_update(lo, hi);
}

void sg_copies_after_fork_child(void)
{
    /* The child's copies of guarded pages would fault with nobody to
     * release them: give them back their normal protection first. With no
     * copy left in the table, sg_guard_update works that out page by page
     * (the program's own mprotect calls may differ within a range). */
    sg_copy_table_after_fork_child(open_pages);
}
