/* Single-stepping over a guarded page. A fault on a guarded page outside
 * every conflicting copy's bytes (a neighbour of the copy on the same page)
 * must complete without a report: the page is opened, the trap flag is set
 * in the interrupted context, and the SIGTRAP after that one instruction
 * closes the page again. While it is open, other threads' accesses to the
 * copy go unseen (a missed race, never a false one or lost data). A page
 * that keeps faulting (a rep movs over it, one fault per iteration) is
 * settled instead: its copies are waited for and it is opened for good. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "syncguard/common.h"
#include "syncguard/fault.h"
#include "syncguard/guard.h"

void sg_forward_signal(int sig, siginfo_t *si, void *uc);

#define TRAP_FLAG 0x100
#define STEPS_BEFORE_SETTLING 64

static SG_TLS uintptr_t stepping_page; /* 0: not stepping */
/* One instruction that keeps faulting on one page (a rep movs, one fault
 * per iteration) is counted; any other fault starts the count again, so a
 * program that merely touches neighbours often is never made to wait. */
static SG_TLS uintptr_t last_page, last_pc;
static SG_TLS int steps_in_a_row;

/* With sg_model_lock held. 0 means: do not step, settle the page. */
int sg_step_begin(uintptr_t page, ucontext_t *uc)
{
    if (stepping_page)
        return 0; /* a second page in one instruction: settle this one */
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    if (page != last_page || pc != last_pc)
        last_page = page, last_pc = pc, steps_in_a_row = 0;
    if (++steps_in_a_row > STEPS_BEFORE_SETTLING)
        return 0;
    if (sg_protect(page, sg_page_size, sg_guard_normal_prot(page)) != 0)
        return 0;
    stepping_page = page;
    uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
    return 1;
}

static void on_sigtrap(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    if (!stepping_page) {
        sg_forward_signal(sig, si, ucv);
        return;
    }
    int saved_errno = errno;
    uintptr_t page = stepping_page;
    stepping_page = 0;
    uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
    sg_in_syncguard++;
    sg_lock(&sg_model_lock);
    sg_guard_update(page, page + sg_page_size); /* as the copies now require */
    sg_unlock(&sg_model_lock);
    sg_in_syncguard--;
    errno = saved_errno;
}

void sg_step_install(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigtrap;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sg_real_sigaction(SIGTRAP, &sa, &old);
    sg_fault_set_program_action(SIGTRAP, &old);
}
