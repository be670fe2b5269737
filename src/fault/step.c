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


static SG_TLS uintptr_t stepping_page; /* 0: not stepping */
/* The program had the trap flag set itself (a debugger-like program
 * single-stepping its own code): the trap after the instruction is its
 * too, and the flag stays. */
static SG_TLS int program_stepping;
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

/* With sg_model_lock held. 0: cannot step (a second page in one
 * instruction, or mprotect failed): settle the page. */
int sg_step_begin(uintptr_t page, ucontext_t *uc)
{
    if (!SG_ARCH_CAN_STEP || stepping_page)
        return 0;
    if (sg_protect(page, sg_page_size, sg_guard_normal_prot(page)) != 0)
        return 0;
    stepping_page = page;
    program_stepping = sg_arch_trap_flag(uc);
    sg_arch_set_trap_flag(uc, 1);
    return 1;
}

static void close_on_own_stack(void *arg)
{
    uintptr_t page = *(uintptr_t *)arg;
    unsigned long t0 = sg_now_ns();
    SG_INSIDE_SYNCGUARD {
        sg_lock(&sg_model_lock);
        sg_guard_update(page, page + sg_page_size); /* as the copies now require */
        sg_unlock(&sg_model_lock);
    }
    sg_stat_since(SG_STAT_fault_ns, t0);
}

static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    /* Only the kernel's single-step trap ends a step: a SIGTRAP sent to
     * the thread meanwhile, or an int3, is the program's. */
    if (!stepping_page || si->si_code != TRAP_TRACE) {
        sg_forward_signal(sig, si, ucv);
        return;
    }
    int saved_errno = errno;
    uintptr_t page = stepping_page;
    int program_trap = program_stepping;
    stepping_page = 0;
    program_stepping = 0;
    if (!program_trap)
        sg_arch_set_trap_flag(uc, 0);
    sg_run_on_own_stack(close_on_own_stack, &page, uc); /* the stack we are on may be small */
    errno = saved_errno;
    if (program_trap)
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
