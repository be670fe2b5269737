/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up, once per process, before any wrapper does work (libfaketime
 * style): options, the copy table, the fault handlers, fork and exit hooks.
 * The composition root: the one place that knows every floor.
 * Runs from the constructor, or from the first wrapper if another library's
 * constructor calls CUDA before ours has run. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/log.h"
#include "base/options.h"
#include "base/page.h"
#include "base/self.h"
#include "capture/python.h"
#include "capture/stack.h"
#include "fault/fault.h"
#include "guard/guard.h"
#include "model/copies.h"
#include "preload/root.h"
#include "preload/shim.h"
#include "report/suppress.h"

static atomic_long init_thread;

/* SYNCGUARD_OPTIONS, unless the process runs in secure-execution mode (a
 * set-user-ID or set-group-ID program, or one with capabilities): its
 * environment is then whoever started it, who must not choose the files it
 * writes (log_path, json_path) or make it abort. glibc ignores
 * LD_LIBRARY_PATH then, and the sanitizers their options. */
static const char *options_text(void)
{
    const char *text = getenv("SYNCGUARD_OPTIONS");
    if (text && getauxval(AT_SECURE)) {
        sg_log_stderr(SG_LOG_WARNING, "secure-execution mode (AT_SECURE): SYNCGUARD_OPTIONS "
                                      "ignored, running with the defaults\n");
        return NULL;
    }
    return text;
}

static void parse_options_or_die(void)
{
    char err[512];
    if (sg_options_parse(options_text(), &sg_opt, err, sizeof err) < 0) {
        sg_log_stderr(SG_LOG_ERROR, "SYNCGUARD_OPTIONS: %s\n", err);
        _exit(1);
    }
    /* A bad suppressions file stops the process here, like a bad option,
     * rather than letting a race it was meant to hide fail the run later. */
    if (sg_suppressions_load(sg_opt.suppressions, err, sizeof err) < 0) {
        sg_log_stderr(SG_LOG_ERROR, "%s\n", err);
        _exit(1);
    }
    if (sg_opt.help)
        sg_options_print_help(stderr, &sg_opt);
}

static void do_init(void)
{
    SG_INSIDE_SYNCGUARD {
        parse_options_or_die();
        sg_resolve_real_dlsym();
        sg_real_next_resolve_all();
        sg_self_init();
        sg_check_preload_order();
        sg_page_init();
        sg_maps_init();
        if (sg_copies_init(sg_opt.max_pending) < 0) {
            sg_log_stderr(SG_LOG_ERROR, "cannot map the copy table\n");
            _exit(1);
        }
        sg_stack_init();
        sg_python_init();
        sg_sigmask_install(); /* before the handlers that need it */
        sg_fault_install();
        sg_fork_install();
        sg_exit_install();
    }
}

void sg_init(void)
{
    if (SG_LIKELY(atomic_load_explicit(&sg_init_state, memory_order_acquire) == SG_INIT_DONE))
        return;
    int expected = SG_INIT_NONE;
    if (atomic_compare_exchange_strong(&sg_init_state, &expected, SG_INIT_RUNNING)) {
        atomic_store(&init_thread, sg_gettid());
        do_init();
        atomic_store_explicit(&sg_init_state, SG_INIT_DONE, memory_order_release);
        return;
    }
    /* Re-entered from inside do_init (a recursion): go on uninitialised. */
    if (atomic_load(&init_thread) == sg_gettid())
        return;
    while (atomic_load_explicit(&sg_init_state, memory_order_acquire) != SG_INIT_DONE)
        sched_yield();
}

__attribute__((constructor)) static void syncguard_constructor(void)
{
    sg_init();
}

/* The launcher checks that the library really loaded by looking for this. */
SG_EXPORT const char syncguard_loaded[] = "syncguard " PACKAGE_VERSION;
