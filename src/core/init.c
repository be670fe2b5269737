/* Start-up, once per process, before any wrapper does work (libfaketime
 * style): options, the copy table, the fault handlers, fork and exit hooks.
 * Runs from the constructor, or from the first wrapper if another library's
 * constructor calls CUDA before ours has run. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "syncguard/common.h"
#include "syncguard/copies.h"
#include "syncguard/fault.h"
#include "syncguard/guard.h"
#include "syncguard/log.h"
#include "syncguard/options.h"
#include "syncguard/python.h"
#include "syncguard/report.h"
#include "syncguard/stack.h"
#include "syncguard/suppress.h"

void sg_real_init(void);
void *sg_resolve_real_dlsym(void);
void sg_check_preload_order(void);
void sg_forget_tid(void);
void sg_pinned_before_fork(void);
void sg_pinned_after_fork_parent(void);
void sg_pinned_unlock_in_child(void);
void sg_pinned_after_fork_child(void);
void sg_event_pool_after_fork_child(void);
void sg_reporter_after_fork_child(void);
void sg_report_after_fork_child(void);

enum { INIT_NONE, INIT_RUNNING, INIT_DONE };
static atomic_int init_state;
static atomic_long init_thread;

int sg_initialized(void)
{
    return atomic_load_explicit(&init_state, memory_order_acquire) == INIT_DONE;
}

static void parse_options_or_die(void)
{
    char err[512];
    if (sg_options_parse(getenv("SYNCGUARD_OPTIONS"), &sg_opt, err, sizeof err) < 0) {
        fprintf(stderr, "==%d==ERROR: syncguard: SYNCGUARD_OPTIONS: %s\n", (int)getpid(), err);
        _exit(1);
    }
    /* A bad suppressions file stops the process here, like a bad option,
     * rather than letting a race it was meant to hide fail the run later. */
    if (sg_suppressions_load(sg_opt.suppressions, err, sizeof err) < 0) {
        fprintf(stderr, "==%d==ERROR: syncguard: %s\n", (int)getpid(), err);
        _exit(1);
    }
    if (sg_opt.help)
        sg_options_print_help(stderr, &sg_opt);
}

static void before_fork(void)
{
    sg_lock(&sg_model_lock);
    sg_pinned_before_fork();
}

static void after_fork_parent(void)
{
    sg_pinned_after_fork_parent();
    sg_unlock(&sg_model_lock);
}

static void after_fork_child(void)
{
    sg_forget_tid();
    atomic_store(&sg_model_lock.word, 0);
    sg_pinned_unlock_in_child();
    sg_copies_after_fork_child();
    sg_guard_after_fork_child();
    sg_pinned_after_fork_child();
    sg_streams_after_fork_child();
    sg_event_pool_after_fork_child();
    sg_reporter_after_fork_child();
    sg_report_after_fork_child();
    sg_log_after_fork_child();
}

/* Registered first, so it runs after the program's own exit handlers: the
 * exit status says whether syncguard found anything. */
static void at_exit(void)
{
    sg_report_at_exit();
    if (sg_reports_written() > 0) {
        fflush(NULL);
        _exit((int)sg_opt.exitcode);
    }
}

static void do_init(void)
{
    sg_in_syncguard++;
    parse_options_or_die();
    sg_resolve_real_dlsym();
    sg_check_preload_order();
    sg_real_init();
    if (sg_copies_init(sg_opt.max_pending) < 0) {
        fprintf(stderr, "==%d==ERROR: syncguard: cannot map the copy table\n", (int)getpid());
        _exit(1);
    }
    sg_stack_init();
    sg_python_init();
    sg_fault_install();
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    atexit(at_exit);
    sg_in_syncguard--;
}

void sg_init(void)
{
    if (SG_LIKELY(atomic_load_explicit(&init_state, memory_order_acquire) == INIT_DONE))
        return;
    int expected = INIT_NONE;
    if (atomic_compare_exchange_strong(&init_state, &expected, INIT_RUNNING)) {
        atomic_store(&init_thread, sg_gettid());
        do_init();
        atomic_store_explicit(&init_state, INIT_DONE, memory_order_release);
        return;
    }
    /* Re-entered from inside do_init (a recursion): go on uninitialised. */
    if (atomic_load(&init_thread) == sg_gettid())
        return;
    while (atomic_load_explicit(&init_state, memory_order_acquire) != INIT_DONE)
        sched_yield();
}

__attribute__((constructor)) static void syncguard_constructor(void)
{
    sg_init();
}

/* The launcher checks that the library really loaded by looking for this. */
SG_EXPORT const char syncguard_loaded[] = "syncguard " PACKAGE_VERSION;
