/* SPDX-License-Identifier: Apache-2.0 */
/* The SIGSEGV handler: the most dangerous code in syncguard. It runs in the
 * middle of arbitrary program code, so it allocates nothing, uses no stdio
 * and takes only the model lock, and only when the interrupted code holds
 * none of syncguard's locks (else it is a signal handler of the program
 * that interrupted syncguard: in_lock.c lets its access through lock-free).
 *
 * A fault on a guarded page is one of:
 *  - a race: the address lies in the bytes of a pending copy the access
 *    conflicts with. Report (per mode), wait for the copy, release it,
 *    return: the instruction runs again on open, correct memory.
 *  - a neighbour: the page is guarded but the bytes belong to no
 *    conflicting copy (allocator neighbours, small buffers packed
 *    together). A plain load or store is done here (emulate.c); any other
 *    instruction is single-stepped: open the page, step, close it again
 *    (step.c); if the page keeps faulting, wait for its copies instead.
 *    On aarch64, where a thread cannot step itself, an instruction that is
 *    not emulated settles the page (opened once its copies are done).
 *  - a release race: the page was opened between the fault and now. Retry.
 * Anything else is not syncguard's, and goes where it would have gone. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "base/self.h"
#include "base/stats.h"
#include "driver/driver.h"
#include "fault/arch.h"
#include "fault/emulate.h"
#include "fault/fault.h"
#include "fault/flag.h"
#include "fault/kernel_access.h"
#include "fault/resolve.h"
#include "fault/strings.h"
#include "fault/wait.h"
#include "guard/guard.h"
#include "work/kernel.h"
#include "model/copies.h"
#include "model/incall.h"


/* The last fault retried because no guard explained it (its page was
 * opened between the fault and the handler taking the lock). Such a stale
 * fault can repeat while other threads keep closing and opening the page
 * (copies into its other bytes), but then protections change between the
 * tries. The same instruction faulting on the same address with no
 * protection changed in between is the program's own fault: after a few
 * tries it goes to the program's handler. Any fault handled otherwise
 * starts the count afresh. */
#define STALE_TRIES 3
#define STALE_TRIES_MAX 100000 /* however busy the other threads are */
static SG_TLS uintptr_t retry_addr, retry_pc;
static SG_TLS unsigned long retry_epoch;
static SG_TLS int retry_count, retry_total;

static int is_write_fault(const ucontext_t *uc)
{
    return sg_arch_fault_is_write(uc);
}

struct range_hit {
    uintptr_t lo, hi;
    int is_write;
    struct sg_copy *c;
    uintptr_t at; /* the first byte of c in [lo, hi) */
};

SG_REQUIRES(sg_model_lock) static void conflicting(struct sg_copy *c, void *arg)
{
    struct range_hit *h = arg;
    if (h->c || !sg_copy_unclaimed(c) || (c->guard != SG_GUARD_NO_ACCESS && !h->is_write))
        return;
    /* The gaps between a pitched copy's rows are the program's. */
    uintptr_t at = sg_copy_first_touched(c, h->lo, h->hi);
    if (at)
        h->c = c, h->at = at;
}

/* A rep string instruction that keeps faulting on a shared page: rather
 * than open the page blindly, look at all it will still touch; a copy it
 * conflicts with is a race: 1, and *h says where (string_op_race resolves
 * it). Lock held. */
SG_REQUIRES(sg_model_lock) static int string_op_conflict(ucontext_t *uc, struct range_hit *hit)
{
    struct sg_string_op op;
    if (!sg_decode_string_op(uc, &op))
        return 0;
    struct range_hit h = { 0 };
    for (int i = 0; i < op.nread && !h.c; i++) {
        h = (struct range_hit){ op.read_lo[i], op.read_hi[i], 0, NULL, 0 };
        sg_copies_overlapping(sg_page_down(h.lo), sg_page_up(h.hi), conflicting, &h);
    }
    if (!h.c && op.nwrite) {
        h = (struct range_hit){ op.write_lo, op.write_hi, 1, NULL, 0 };
        sg_copies_overlapping(sg_page_down(h.lo), sg_page_up(h.hi), conflicting, &h);
    }
    *hit = h;
    return h.c != NULL;
}

/* The race string_op_conflict found, resolved. Lock held; released. */
SG_RELEASE(sg_model_lock) static int string_op_race(const struct range_hit *h, ucontext_t *uc)
{
    sg_resolve(h->c, h->at, h->is_write, uc);
    sg_stat_add(SG_STAT_faults_race, 1);
    return 1;
}

SG_REQUIRES(sg_model_lock) static void closes_page(struct sg_copy *c, void *arg)
{
    if (c->guard != SG_GUARD_READ_ONLY)
        *(int *)arg = 1;
}

/* A neighbour's plain load or store, done here (emulate.c) rather than
 * stepped: one signal, no mprotect. Only one whose bytes are all on the
 * page, none of them a conflicting copy's (unless any_bytes: an access let
 * through unchecked), and whose decoded address is the fault's (anything
 * else is stepped). A store of more than one byte only on a page no thread
 * can read meanwhile (a read-only guard lets others read it, and the
 * kernel's copy is not one atomic store). Lock held. */
SG_REQUIRES(sg_model_lock)
static int emulate_neighbour(uintptr_t addr, uintptr_t page, ucontext_t *uc, int any_bytes)
{
    struct sg_mem_access a;
    if (!sg_opt.emulate_neighbours || sg_arch_trap_flag(uc) ||
        !sg_emulate_decode(uc, &a) || a.addr != addr || a.is_write != is_write_fault(uc) ||
        sg_page_down(a.addr + a.size - 1) != page)
        return 0;
    struct range_hit h = { a.addr, a.addr + a.size, a.is_write, NULL, 0 };
    if (!any_bytes)
        sg_copies_overlapping(page, page + sg_page_size, conflicting, &h);
    if (h.c)
        return 0;
    int closed = 0;
    if (a.is_write && a.size > 1)
        sg_copies_overlapping(page, page + sg_page_size, closes_page, &closed);
    if (a.is_write && a.size > 1 && !closed)
        return 0;
    return sg_emulate_access(uc, &a);
}

/* A fault on pinned memory that syncguard passes on: say which and why, so
 * that a crash there is attributed right (signal-safe formatting). */
#define NOT_OURS "on pinned memory that no pending copy guards: not syncguard's; passed to " \
                 "the program's SIGSEGV action\n"

static void say_passed_on(uintptr_t addr, uintptr_t pc, const char *why)
{
    sg_stat_add(SG_STAT_faults_passed_on, 1);
    /* Quiet when the program handles the fault itself (its business),
     * unless asked; said when the default action is about to kill it. */
    struct sigaction pa;
    sg_fault_get_program_action(SIGSEGV, &pa);
    if (pa.sa_handler != SIG_DFL && sg_opt.verbosity < 2)
        return;
    sg_log("a fault at 0x%lx (pc 0x%lx) %s", (unsigned long)addr, (unsigned long)pc, why);
}

/* A fault on a guarded page outside the bytes of every copy it conflicts
 * with. Step it. A thread that keeps faulting on the page (step.c) settles
 * it once its copies are done; one instruction that keeps faulting (a rep
 * string: one that will reach a copy's bytes is a race) settles it even if
 * that waits for them, as does a fault that cannot be stepped. let_through:
 * the access is on a copy's bytes but no race (the driver's own inside a
 * call that follows the copy, or a first read of a kernel's range), passed
 * the same way. Lock held; released. */
SG_RELEASE(sg_model_lock)
static int handle_neighbour(uintptr_t addr, uintptr_t page, ucontext_t *uc, int let_through)
{
    struct range_hit h;
    /* An atomic on the page: a lock's word, on which futex() may be called
     * next, which fails on an inaccessible page (guard/normal.c). */
    if (sg_is_atomic_rmw(uc))
        sg_guard_sync_page(page);
    int tired = sg_step_tired(page, sg_arch_pc(uc));
    /* A poll of a flag faults for as long as the flag is pending: that is
     * what it is for (fault/flag.c), not a page to settle. */
    if (sg_flag_at(addr))
        tired = 0;
    if (tired && !let_through && string_op_conflict(uc, &h))
        return string_op_race(&h, uc);
    if (tired && sg_settle_done(page, page + sg_page_size)) {
        sg_settle(page, page + sg_page_size); /* waits for nothing */
        sg_stat_add(SG_STAT_faults_settled, 1);
        sg_step_rested();
        return 1;
    }
    if (tired != SG_STEP_EXHAUSTED && emulate_neighbour(addr, page, uc, let_through)) {
        sg_unlock(&sg_model_lock);
        sg_stat_add(SG_STAT_faults_emulated, 1);
        return 1;
    }
    if (tired != SG_STEP_EXHAUSTED && sg_step_begin(page, uc)) {
        sg_unlock(&sg_model_lock);
        sg_stat_add(SG_STAT_faults_neighbour, 1);
        return 1;
    }
    if (!tired && !let_through && string_op_conflict(uc, &h))
        return string_op_race(&h, uc);
    sg_stat_add(SG_STAT_faults_settled, 1);
    sg_step_rested();
    sg_settle(page, page + sg_page_size);
    return 1;
}

/* A fault on a guarded page while this thread is inside a call into the
 * driver (sg_in_driver): from a signal handler of the program that
 * interrupted the call (or the driver's own access). Nothing here may call
 * the driver or wait for a copy: the interrupted call may hold the
 * driver's locks. (Under the CPU emulator, a SIGUSR1 handler touching a
 * guarded page's neighbours while the program waited in
 * cuStreamSynchronize hung the process in cuEventQuery, once the handler's
 * faults in a row made the page one to settle.) So the access goes through
 * as it would without syncguard, unreported, whatever bytes it touches:
 * emulated here, or single-stepped while the thread is not tired of the
 * page (step.c); after that, as when nothing else can be done, the page is
 * opened until the thread has left the driver (in_lock.c), instead of
 * being settled: a storm of such signals costs one fault per driver call,
 * not two signals and two mprotect calls each. A race there is missed;
 * none is made up. Lock held; released. */
SG_RELEASE(sg_model_lock)
static int let_through_in_driver(uintptr_t addr, uintptr_t page, ucontext_t *uc)
{
    enum sg_stat done = SG_NSTATS;
    if (emulate_neighbour(addr, page, uc, 1))
        done = SG_STAT_faults_emulated;
    else if (!sg_step_tired(page, sg_arch_pc(uc)) && sg_step_begin(page, uc))
        done = SG_STAT_faults_neighbour;
    else
        sg_step_rested();
    sg_unlock(&sg_model_lock);
    if (done == SG_NSTATS)
        return sg_fault_in_lock(addr, is_write_fault(uc));
    sg_stat_add(done, 1);
    return 1;
}

/* An access to c's bytes that c forbids. Inside a copy's or memset's own
 * call (model/incall.h) it is the driver's: no race when the call follows c
 * in stream order; else a race between the device's work and the call's
 * copy, reported, then let through like any access inside the driver
 * (nothing here may call the driver or wait while the call runs). A
 * kernel's range is first asked what the access is (kernel_access.c). Lock
 * held; released. */
SG_RELEASE(sg_model_lock)
static int handle_conflict(struct sg_copy *c, uintptr_t addr, uintptr_t page, int is_write,
                           ucontext_t *uc)
{
    const struct sg_driver_call *call = sg_driver_call_now;
    if (call && sg_driver_call_follows(call, c)) {
        sg_stat_add(SG_STAT_faults_in_call, 1);
        return let_through_in_driver(addr, page, uc);
    }
    if (call) {
        sg_report_in_call(c, addr, is_write, uc);
        return let_through_in_driver(addr, page, uc);
    }
    if (c->origin == SG_ORIGIN_KERNEL && !c->learnt && sg_opt.kernel_args == 1 &&
        sg_copy_unclaimed(c)) {
        switch (sg_kernel_access(c, addr, is_write)) {
        case SG_KERNEL_PASS:
            return handle_neighbour(addr, page, uc, 1);
        case SG_KERNEL_OPENED:
            sg_unlock(&sg_model_lock);
            return 1; /* retried on the opened page, or on what guards it still */
        case SG_KERNEL_RACE:
            break;
        }
    }
    sg_stat_add(sg_copy_unclaimed(c) ? SG_STAT_faults_race : SG_STAT_faults_waited, 1);
    sg_resolve(c, addr, is_write, uc);
    return 1;
}

/* 1 if the fault was syncguard's and the program may go on. */
static int handle_fault(uintptr_t addr, ucontext_t *uc)
{
    int is_write = is_write_fault(uc), page_guarded;
    if (sg_locks_held)
        return sg_fault_in_lock(addr, is_write); /* no lock may be taken (in_lock.c) */
    uintptr_t page = sg_page_down(addr);
    sg_lock(&sg_model_lock);
    struct sg_copy *c = sg_copies_find(addr, is_write, &page_guarded);
    if (c || page_guarded)
        retry_addr = 0;
    if (c && sg_driver_call_now)
        return handle_conflict(c, addr, page, is_write, uc); /* a copy's own, inside its call */
    if ((c || page_guarded) && sg_in_driver)
        return let_through_in_driver(addr, page, uc);
    if (c)
        return handle_conflict(c, addr, page, is_write, uc);
    if (page_guarded && !is_write && sg_flag_poll_observes(addr)) {
        sg_unlock(&sg_model_lock);
        return 1; /* a flag's write had landed: observed, look again */
    }
    if (page_guarded && !is_write) {
        /* A flag's store may land between that look and the read let
         * through here: look again after it, so that a poll that saw the
         * value has observed it (at worst a poll that read the old value a
         * moment before: a race missed, never one made up). */
        int r = handle_neighbour(addr, page, uc, 0);
        sg_lock(&sg_model_lock);
        sg_flag_poll_observes(addr);
        sg_unlock(&sg_model_lock);
        return r;
    }
    if (page_guarded)
        return handle_neighbour(addr, page, uc, 0);
    sg_unlock(&sg_model_lock);
    /* Opened since the fault? Retry a couple of times, then give up. */
    uintptr_t pc = sg_arch_pc(uc);
    if (!sg_pinned_touches(page, page + sg_page_size))
        return 0;
    unsigned long epoch = sg_protect_epoch();
    if (retry_addr != addr || retry_pc != pc)
        retry_addr = addr, retry_pc = pc, retry_count = 0, retry_total = 0;
    else if (retry_epoch != epoch)
        retry_count = 0;
    retry_epoch = epoch;
    if (retry_count++ < STALE_TRIES && retry_total++ < STALE_TRIES_MAX) {
        sg_stat_add(SG_STAT_faults_stale, 1);
        return 1;
    }
    say_passed_on(addr, pc, NOT_OURS);
    return 0;
}

struct fault {
    siginfo_t *si;
    ucontext_t *uc;
    int ours;
};

static void handle_on_own_stack(void *arg)
{
    struct fault *f = arg;
    unsigned long t0 = sg_now_ns();
    SG_INSIDE_SYNCGUARD
        f->ours = handle_fault((uintptr_t)f->si->si_addr, f->uc);
    sg_stat_since(SG_STAT_fault_ns, t0);
}

static void on_sigsegv(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    struct fault f = { si, ucv, 0 };
    if (si->si_code == SEGV_ACCERR && sg_initialized())
        sg_run_on_own_stack(handle_on_own_stack, &f, ucv); /* the stack we are on may be small */
    errno = saved_errno;
    if (!f.ours)
        sg_forward_signal(sig, si, ucv);
}

void sg_fault_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsegv;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK | SA_NODEFER; /* chaining: signals.c */
    sigemptyset(&sa.sa_mask);
    struct sigaction old;
    sg_real_sigaction(SIGSEGV, &sa, &old);
    sg_fault_set_program_action(SIGSEGV, &old);
    sg_step_install();
    sg_kernel_set_guarded_hook(sg_waiters_ensure);
    sg_in_lock_install();
    sg_emulate_install();
}
