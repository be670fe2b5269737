/* SPDX-License-Identifier: Apache-2.0 */
/* Faults while this thread holds one of syncguard's locks. syncguard never
 * touches guarded memory itself while it holds one, so such a fault comes
 * from a signal handler of the program that interrupted syncguard (a timer,
 * SIGCHLD, an event loop's wake-up) and touched a guarded page: a
 * neighbour of a copy, or the copy itself. Handling it as usual would take
 * the model lock, which this very thread holds: a deadlock. Reporting it
 * would need the copy table the interrupted code may be halfway through
 * changing, and waiting for the copy a call into the driver, which the
 * interrupted code may be inside. So the access is let through: the page is
 * opened (as much as the access needs, never more than the program's own
 * protection allows), without a lock, and guarded again as the copies then
 * require once the thread leaves syncguard's last lock (sg_unlock runs
 * reguard_deferred). Meanwhile a race on that page goes unseen, for the
 * few microseconds the interrupted call still holds the lock: a missed
 * race, never a false one, and no data changed.
 *
 * The same let-through serves a fault while the thread is inside a call
 * into the driver, when the access can be neither emulated nor stepped
 * (handler.c): the page is then guarded again once the thread has left
 * the driver too (base/lock.h), as no driver call may be made before. */
#include "config.h"

#include <signal.h>
#include <sys/mman.h>

#include "base/common.h"
#include "base/lock.h"
#include "model/copies.h"
#include "fault/fault.h"
#include "base/page.h"
#include "guard/guard.h"
#include "base/log.h"
#include "model/model.h"
#include "base/options.h"
#include "base/stats.h"

#define DEFERRED 16

/* Pages this thread opened while holding a lock; overflow: more than fit,
 * every active copy's pages are guarded again. */
static SG_TLS uintptr_t deferred[DEFERRED];
static SG_TLS int ndeferred, overflow;

static void defer(uintptr_t page)
{
    for (int i = 0; i < ndeferred; i++)
        if (deferred[i] == page)
            return;
    if (ndeferred < DEFERRED)
        deferred[ndeferred++] = page;
    else
        overflow = 1;
    sg_lock_deferred = 1;
}

SG_REQUIRES(sg_model_lock) static void reguard_copy(struct sg_copy *c, void *arg)
{
    (void)arg;
    sg_guard_update(c->pg_lo, c->pg_hi);
}

/* Runs when the thread has given back its last lock. */
static void reguard_deferred(void)
{
    sg_lock(&sg_model_lock);
    /* Taken before the work: a page opened by a handler that interrupts
     * this (the lock is held again) is deferred anew and done next time. */
    uintptr_t pages[DEFERRED];
    int n = ndeferred, all = overflow;
    for (int i = 0; i < n; i++)
        pages[i] = deferred[i];
    ndeferred = 0, overflow = 0, sg_lock_deferred = 0;
    if (all)
        sg_copies_overlapping(0, UINTPTR_MAX, reguard_copy, NULL);
    else
        for (int i = 0; i < n; i++)
            sg_guard_update(pages[i], pages[i] + sg_page_size);
    sg_unlock(&sg_model_lock);
}

void sg_in_lock_install(void)
{
    sg_lock_set_after_last_unlock(reguard_deferred);
}

static void say_let_through(uintptr_t addr)
{
    SG_VLOG(2, "an access at 0x%lx from a signal handler that interrupted syncguard: let through "
               "unchecked\n",
            (unsigned long)addr);
}

int sg_fault_in_lock(uintptr_t addr, int is_write)
{
    uintptr_t page = sg_page_down(addr);
    if (!sg_pinned_touches_unlocked(page, page + sg_page_size))
        return 0; /* not pinned: not syncguard's guard */
    int prot = sg_guard_program_prot_unlocked(page);
    if (prot < 0)
        prot = PROT_READ | PROT_WRITE;
    int need = is_write ? PROT_READ | PROT_WRITE : PROT_READ;
    if ((prot & need) != need)
        return 0; /* the program's own protection forbids it */
    if (sg_protect(page, sg_page_size, need) != 0)
        return 0;
    defer(page);
    sg_stat_add(SG_STAT_faults_let_through, 1);
    say_let_through(addr);
    return 1;
}

void sg_in_lock_after_fork_child(void)
{
    ndeferred = 0, overflow = 0, sg_lock_deferred = 0;
}
