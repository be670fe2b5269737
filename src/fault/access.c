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

#include "syncguard/common.h"
#include "syncguard/copies.h"
#include "syncguard/guard.h"
#include "syncguard/observe.h"
#include "syncguard/resolve.h"

struct first_hit {
    uintptr_t lo, hi;
    int is_write;
    struct sg_copy *conflict; /* a copy whose bytes the access conflicts with */
    int guarded, handling;    /* pages guarded at all; copies being handled */
};

static void look(struct sg_copy *c, void *arg)
{
    struct first_hit *h = arg;
    h->guarded = 1;
    if (c->state != SG_COPY_ACTIVE) {
        h->handling = 1;
        return;
    }
    int bytes = c->base < h->hi && c->base + c->size > h->lo;
    if (bytes && !h->conflict && (c->guard == SG_GUARD_NO_ACCESS || h->is_write))
        h->conflict = c;
}

static uintptr_t max_u(uintptr_t a, uintptr_t b)
{
    return a > b ? a : b;
}

/* Pinned memory about to go back to the driver: every copy still in flight
 * on it is a race of its own (the program freed memory the device may
 * still write); each is reported, then waited for, before the free. */
void sg_access_free(uintptr_t lo, size_t len)
{
    if (len == 0 || sg_in_syncguard || !sg_observe_needed())
        return;
    uintptr_t hi = lo + len;
    sg_in_syncguard++;
    for (;;) {
        struct first_hit h = { lo, hi, SG_ACCESS_WRITE, NULL, 0, 0 };
        sg_lock(&sg_model_lock);
        sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), look, &h);
        if (h.conflict) {
            sg_resolve(h.conflict, h.conflict->base, SG_ACCESS_FREE, NULL);
            continue;
        }
        sg_unlock(&sg_model_lock);
        if (!h.handling)
            break;
        sched_yield();
    }
    sg_in_syncguard--;
}

void sg_access_range(uintptr_t buf, size_t len, int is_write)
{
    /* syncguard's own I/O (its log) never touches guarded memory. */
    if (len == 0 || sg_in_syncguard || !sg_observe_needed())
        return;
    int saved_errno = errno;
    uintptr_t lo = buf, hi = lo + len;
    sg_in_syncguard++;
    for (;;) {
        struct first_hit h = { lo, hi, is_write, NULL, 0, 0 };
        sg_lock(&sg_model_lock);
        sg_copies_overlapping(sg_page_down(lo), sg_page_up(hi), look, &h);
        if (h.conflict) {
            sg_resolve(h.conflict, max_u(lo, h.conflict->base), is_write, NULL);
            continue;
        }
        if (h.guarded && !h.handling) {
            sg_settle(lo, hi); /* neighbours only: open the pages */
            continue;
        }
        sg_unlock(&sg_model_lock);
        if (!h.handling)
            break;
        sched_yield(); /* another thread is waiting for a copy here */
    }
    sg_in_syncguard--;
    errno = saved_errno;
}
