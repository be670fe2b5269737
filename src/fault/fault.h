/* SPDX-License-Identifier: Apache-2.0 */
/* Fault handling: SIGSEGV on a guarded page is matched to its copy and
 * handled per mode; SIGTRAP ends a single step over a shared page. Every
 * other fault goes to the program's own handler or the default action. */
#ifndef SG_FAULT_FAULT_H
#define SG_FAULT_FAULT_H

#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "model/model.h"

/* Installs the handlers (from sg_init). */
void sg_fault_install(void);
/* The program's view of its SIGSEGV/SIGTRAP disposition, which syncguard
 * keeps while its own handler stays installed (signals.c). */
int sg_fault_owns(int sig);
void sg_fault_get_program_action(int sig, struct sigaction *out);
void sg_fault_set_program_action(int sig, const struct sigaction *act);
/* The sigaction() shim's work on a signal syncguard owns: the program's
 * action becomes act (if given), the one before it goes to old. */
void sg_fault_swap_program_action(int sig, const struct sigaction *act, struct sigaction *old);
/* Delivers a signal that is not syncguard's as if syncguard were absent. */
void sg_forward_signal(int sig, siginfo_t *si, void *uc);
/* The program's view of SIGSEGV and SIGTRAP, blocked inside its own
 * handler only in its view (signals.c: they stay deliverable, for
 * syncguard's guards). virtually_blocked adds them to set (1 if any);
 * set_virtual applies a sigprocmask request to the view; longjmp drops
 * the view of the handlers a siglongjmp leaves, and the driver calls it
 * leaves (base/lock.h). */
int sg_fault_virtually_blocked(sigset_t *set);
int sg_fault_in_program_handler(void);
void sg_fault_set_virtual(int how, const sigset_t *set);
/* Raises SIGSEGV/SIGTRAP sent while the program's view blocked them and
 * that it no longer blocks (outside its handlers; they do it on return). */
void sg_fault_raise_unblocked(void);
struct __jmp_buf_tag;
void sg_fault_longjmp(const struct __jmp_buf_tag *env);
/* The real sigaction, past syncguard's own. */
int sg_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* ---- single-stepping (step.c), with sg_model_lock held ---- */
enum { SG_STEP_TIRED = 1, SG_STEP_EXHAUSTED = 2 };
/* Counts this thread's fault on page at pc: 0, or how tired it is of it. */
int sg_step_tired(uintptr_t page, uintptr_t pc) SG_REQUIRES(sg_model_lock);
/* The thread's count of faults in a row starts again (this thread's own:
 * with the lock or without). */
void sg_step_rested(void);
/* Opens page for one instruction; 0 when it cannot (settle instead). */
int sg_step_begin(uintptr_t page, ucontext_t *uc) SG_REQUIRES(sg_model_lock);
void sg_step_install(void);

/* ---- in_lock.c: a fault while this thread holds one of syncguard's locks ---- */
/* 1 if it was on a guarded page, now open for the access (guarded again
 * when the thread leaves syncguard's locks); 0: the program's fault. */
int sg_fault_in_lock(uintptr_t addr, int is_write);
void sg_in_lock_install(void);
void sg_in_lock_after_fork_child(void);

/* ---- own_stack.c ---- */
/* Runs fn(arg) on a stack of syncguard's own when the handler of context
 * uc arrived on a small alternate stack (a handler's heavy work would
 * overflow it), else right here; signal-safe. */
void sg_run_on_own_stack(void (*fn)(void *), void *arg, const ucontext_t *uc);
void sg_own_stacks_after_fork_child(void);

#endif
