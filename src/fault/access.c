/* SPDX-License-Identifier: Apache-2.0 */
/* Accesses that never fault. The kernel does not raise SIGSEGV when a system
 * call meets a protected user buffer: the call fails with EFAULT. So the
 * system-call shims announce their buffers here first: a buffer that
 * conflicts with a pending copy is a race like any other (reported, then
 * waited for); a buffer that merely shares a guarded page with a copy gets
 * that page opened. Either way the call then runs on open memory and
 * behaves exactly as without syncguard. */
#include "config.h"

#include <errno.h>
#include <sched.h>

#include "base/common.h"
#include "base/lock.h"
#include "base/stats.h"
#include "fault/access.h"
#include "fault/resolve.h"
#include "guard/guard.h"
#include "model/copies.h"
#include "model/model.h"
#include "model/sync.h"

struct first_hit {
    uintptr_t lo, hi;
    int is_write;
    struct sg_copy *conflict; /* a copy whose bytes the access conflicts with */
    uintptr_t at;             /* the first byte they share */
    int guarded, handling;    /* pages guarded at all; copies being handled */
};

SG_REQUIRES(sg_model_lock) static void look(struct sg_copy *c, void *arg)
{
    struct first_hit *h = arg;
    h->guarded = 1;
    if (!sg_copy_unclaimed(c)) {
        h->handling = 1;
        return;
    }
    if (h->conflict || (c->guard != SG_GUARD_NO_ACCESS && !h->is_write))
        return;
    /* The gaps between a pitched copy's rows are the program's. */
    uintptr_t at = sg_copy_first_touched(c, h->lo, h->hi);
    if (at)
        h->conflict = c, h->at = at;
}

/* Resolves every conflict of an access to [lo, hi) with a pending copy
 * (report, wait, release), then makes the rest of its pages accessible for
 * the caller: a window held open until sg_access_end (others' accesses to
 * the copies there go unseen meanwhile: a missed race, never a false one),
 * or, with no window left, by waiting for those copies. w NULL: the access
 * touches no memory (a free), neighbours stay guarded. */
static void resolve_range(uintptr_t lo, uintptr_t hi, int access, struct sg_access_window *w)
{
    int is_write = access != SG_ACCESS_READ;
    for (;;) {
        struct first_hit h = { lo, hi, is_write, NULL, 0, 0, 0 };
        sg_lock(&sg_model_lock);
        sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), look, &h);
        if (h.conflict) {
            uintptr_t at = access == SG_ACCESS_FREE ? h.conflict->base : h.at;
            sg_resolve(h.conflict, at, access, NULL);
            continue;
        }
        /* Pinned pages stay open for the call even when nothing guards
         * them yet: another thread may guard them (a copy into a neighbour)
         * between this check and the kernel's access, which would then fail
         * with EFAULT. Guarding respects the window until the call ends. */
        if (w && !h.handling && (h.guarded || sg_pinned_touches(lo, hi))) {
            uintptr_t plo = sg_page_down(lo), phi = sg_page_up(hi);
            if (w->n < SG_ACCESS_WINDOWS && sg_guard_window_open(plo, phi, h.guarded) == 0) {
                w->lo[w->n] = plo, w->hi[w->n] = phi, w->n++;
                sg_unlock(&sg_model_lock);
                if (h.guarded)
                    sg_stat_add(SG_STAT_syscall_windows, 1);
                return;
            }
            if (h.guarded) {
                sg_settle(lo, hi);
                continue;
            }
        }
        if (!h.handling) {
            sg_unlock(&sg_model_lock);
            return;
        }
        /* Another thread is handling copies here, or was: one that left
         * its wait by siglongjmp never comes back for them. Waiting for
         * them here too, and releasing them, does either way. */
        sg_settle_handled(lo, hi);
    }
}

/* Pinned memory about to go back to the driver: every copy still in flight
 * on it is a race of its own (the program freed memory the device may
 * still write); each is reported, then waited for, before the free. */
void sg_access_free(uintptr_t lo, size_t len)
{
    if (len == 0 || sg_in_syncguard || !sg_observe_needed())
        return;
    SG_INSIDE_SYNCGUARD
        resolve_range(lo, lo + len, SG_ACCESS_FREE, NULL);
}

void sg_access_begin(struct sg_access_window *w, uintptr_t buf, size_t len, int is_write)
{
    /* syncguard's own I/O (its log) never touches guarded memory. With no
     * copy in flight, a buffer in pinned memory still needs its window: a
     * copy may be guarded on its pages before the kernel gets to it. */
    if (len == 0 || sg_in_syncguard)
        return;
    if (!sg_observe_needed() && !(sg_pinned_any() && sg_pinned_touches(buf, buf + len)))
        return;
    int saved_errno = errno;
    SG_INSIDE_SYNCGUARD
        resolve_range(buf, buf + len, is_write ? SG_ACCESS_WRITE : SG_ACCESS_READ, w);
    errno = saved_errno;
}

static void any_copy(struct sg_copy *c, void *arg)
{
    (void)c;
    *(int *)arg = 1;
}

void sg_access_touch_begin(struct sg_access_window *w, uintptr_t buf, size_t len)
{
    if (len == 0 || sg_in_syncguard || !sg_observe_needed())
        return;
    int saved_errno = errno;
    SG_INSIDE_SYNCGUARD {
        uintptr_t plo = sg_page_down(buf), phi = sg_page_up(buf + len);
        int guarded = 0;
        sg_lock(&sg_model_lock);
        sg_copies_overlapping(plo, phi, any_copy, &guarded);
        if (guarded && w->n < SG_ACCESS_WINDOWS && sg_guard_window_open(plo, phi, 1) == 0) {
            w->lo[w->n] = plo, w->hi[w->n] = phi, w->n++;
            sg_unlock(&sg_model_lock);
            sg_stat_add(SG_STAT_syscall_windows, 1);
        } else if (guarded) {
            sg_settle(buf, buf + len); /* no window left: wait for them */
        } else {
            sg_unlock(&sg_model_lock);
        }
    }
    errno = saved_errno;
}

void sg_access_end(struct sg_access_window *w)
{
    if (w->n == 0)
        return;
    int saved_errno = errno;
    SG_INSIDE_SYNCGUARD {
        sg_lock(&sg_model_lock);
        for (int i = 0; i < w->n; i++)
            sg_guard_window_close(w->lo[i], w->hi[i]);
        sg_unlock(&sg_model_lock);
    }
    w->n = 0;
    errno = saved_errno;
}

void *sg_access_unpin(void *p, int entered, struct sg_pin *out)
{
    *out = (struct sg_pin){ 0 };
    if (sg_pinned_remove((uintptr_t)p, out) != 0)
        return p;
    if (entered) {
        sg_access_free(out->base, out->size);
        sg_lock(&sg_model_lock);
        sg_guard_forget_program_prot(out->base, out->base + out->size);
        sg_unlock(&sg_model_lock);
    }
    return (void *)out->driver_base;
}
