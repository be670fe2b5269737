/* SPDX-License-Identifier: Apache-2.0 */
/* Single-stepping over a guarded page. A fault on a guarded page outside
 * every conflicting copy's bytes (a neighbour of the copy on the same page)
 * must complete without a report: the page is opened, the trap flag is set
 * in the interrupted context, and the SIGTRAP after that one instruction
 * closes the page again (x86-64; on aarch64 sg_step_begin always says no
 * and the page is settled instead: handler.c). While it is open, other threads' accesses to the
 * copy go unseen (a missed race, never a false one or lost data).
 *
 * A page that keeps faulting (a rep movs over it, one fault per iteration;
 * a pinned-memory allocator filling the next small buffer next to one being
 * copied) costs two mprotect calls and two signals a fault. After
 * page_steps faults in a row on one page a thread is "tired" of it and
 * settles the page (handler.c) as soon as its copies have finished on the
 * device: opened for good, no wait. One instruction that keeps faulting (a
 * rep movs, one fault per iteration) exhausts it: then the page is settled
 * even if that means waiting for its copies. Only then: a thread that
 * fills its own buffers next to copies that wait for it to finish (a
 * producer ring) must never be made to wait for them. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "base/common.h"
#include "base/lock.h"
#include "base/options.h"
#include "base/stats.h"
#include "fault/arch.h"
#include "fault/fault.h"
#include "guard/guard.h"
#include "model/model.h"


/* The steps this thread has begun and not yet ended, innermost last. A
 * signal may arrive between a fault and its step's trap: the kernel runs
 * the program's handler first (with the trap flag clear; the interrupted
 * context keeps it), and that handler may touch guarded pages too. Its
 * steps nest inside the pending one and end first, since the handler's
 * instructions run before the interrupted one does: the traps come in the
 * reverse order of the steps. A stepped instruction that faults again on
 * another page (an access across a page boundary, a move between two
 * guarded pages) adds that page to its step. Each stepped page is held
 * open by a window (guard/normal.c) until its trap, so that nothing in
 * between closes it again: not another thread's guard on the page, not
 * the re-guarding of a page that a handler opened while this thread held
 * the lock (in_lock.c), which made the stepped instruction fault again and
 * settle the page, waiting for its copies, each time a signal landed in
 * between. */
#define NESTED_STEPS 4
#define STEP_PAGES 2
static SG_TLS struct step {
    uintptr_t page[STEP_PAGES];
    int npages;
    /* The program had the trap flag set itself (a debugger-like program
     * single-stepping its own code): the trap after the instruction is its
     * too, and the flag stays. */
    int program_stepping;
} steps[NESTED_STEPS];
static SG_TLS int nsteps;
#define SAME_PC_BEFORE_SETTLING 64

/* Faults of this thread in a row on one page, and of its one instruction
 * in a row; a fault on another page starts both counts again, so a program
 * that merely touches neighbours now and then is never made to wait. */
static SG_TLS uintptr_t last_page, last_pc;
static SG_TLS long faults_in_a_row, same_pc_in_a_row;

int sg_step_tired(uintptr_t page, uintptr_t pc)
{
    if (page != last_page)
        last_page = page, faults_in_a_row = 0, last_pc = 0;
    if (pc != last_pc)
        last_pc = pc, same_pc_in_a_row = 0;
    if (++same_pc_in_a_row > SAME_PC_BEFORE_SETTLING)
        return SG_STEP_EXHAUSTED;
    return ++faults_in_a_row > sg_opt.page_steps ? SG_STEP_TIRED : 0;
}

void sg_step_rested(void)
{
    faults_in_a_row = same_pc_in_a_row = 0;
}

/* Holds page open for a step; 0 when no window is left or the page cannot
 * be opened. Lock held. */
SG_REQUIRES(sg_model_lock) static int hold_open(uintptr_t page)
{
    int added = sg_guard_window_add(page, page + sg_page_size);
    if (added < 0)
        return 0;
    if (added == 0 || sg_guard_update(page, page + sg_page_size) == 0)
        return 1;
    sg_guard_window_close(page, page + sg_page_size);
    return 0;
}

/* With sg_model_lock held. 0: cannot step (steps nested too deep, too many
 * pages in one instruction, no window left, or mprotect failed): settle
 * the page. */
int sg_step_begin(uintptr_t page, ucontext_t *uc)
{
    if (!SG_ARCH_CAN_STEP)
        return 0;
    /* The trap flag already set in a context with a step pending: that
     * step's instruction faulted again, on another page (a handler's
     * context starts with it clear). */
    struct step *s = nsteps > 0 && sg_arch_trap_flag(uc) ? &steps[nsteps - 1] : NULL;
    if (s) {
        for (int i = 0; i < s->npages; i++)
            if (s->page[i] == page)
                return 0; /* held open, yet it faulted: not a guard's fault */
        if (s->npages == STEP_PAGES || !hold_open(page))
            return 0;
        s->page[s->npages++] = page;
        return 1;
    }
    if (nsteps == NESTED_STEPS || !hold_open(page))
        return 0;
    s = &steps[nsteps++];
    s->page[0] = page;
    s->npages = 1;
    s->program_stepping = sg_arch_trap_flag(uc);
    sg_arch_set_trap_flag(uc, 1);
    return 1;
}

static void close_on_own_stack(void *arg)
{
    const struct step *s = arg;
    unsigned long t0 = sg_now_ns();
    SG_INSIDE_SYNCGUARD {
        sg_lock(&sg_model_lock);
        for (int i = 0; i < s->npages; i++) /* guarded again as the copies now require */
            sg_guard_window_close(s->page[i], s->page[i] + sg_page_size);
        sg_unlock(&sg_model_lock);
    }
    sg_stat_since(SG_STAT_fault_ns, t0);
}

static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    /* Only the kernel's single-step trap ends a step: a SIGTRAP sent to
     * the thread meanwhile, or an int3, is the program's. */
    if (nsteps == 0 || si->si_code != TRAP_TRACE) {
        sg_forward_signal(sig, si, ucv);
        return;
    }
    int saved_errno = errno;
    struct step done = steps[--nsteps];
    if (!done.program_stepping)
        sg_arch_set_trap_flag(uc, 0);
    sg_run_on_own_stack(close_on_own_stack, &done, uc); /* the stack we are on may be small */
    errno = saved_errno;
    if (done.program_stepping)
        sg_forward_signal(sig, si, ucv);
}

void sg_step_install(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigtrap;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK | SA_NODEFER; /* chaining: signals.c */
    sigemptyset(&sa.sa_mask);
    sg_real_sigaction(SIGTRAP, &sa, &old);
    sg_fault_set_program_action(SIGTRAP, &old);
}
