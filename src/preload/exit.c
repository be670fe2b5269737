/* SPDX-License-Identifier: Apache-2.0 */
/* Exit: the summary, and the exit status that says whether syncguard found
 * anything, after everyone's exit work. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/options.h"
#include "learn/learn.h"
#include "preload/root.h"
#include "report/report.h"

/* Runs after all other exit work (see sg_exit_install), so the _exit here
 * cuts short only glibc's final flush of stdio, which fflush does first. */
static void at_exit(void *unused)
{
    (void)unused;
    sg_learn_fini();
    sg_reporter_drain(); /* reports still being written count too */
    sg_report_at_exit();
    if (sg_reports_written() > 0) {
        fflush(NULL);
        _exit((int)sg_opt.exitcode);
    }
}

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso_handle);

/* exit() runs the handlers registered without a library's handle in the
 * reverse order of registration; the loader's finalizer (_dl_fini, which
 * runs every library's destructors and the handlers they registered with
 * atexit) is registered by __libc_start_main, after the preloaded
 * libraries' constructors ran. Registered from ours without our handle,
 * at_exit therefore runs after all of that. With atexit, which passes
 * libsyncguard's handle, it ran when the loader finalized libsyncguard,
 * and its _exit skipped every library finalized after it (their
 * destructors and atexit handlers: data they flush at exit was lost).
 * The library is linked -z nodelete: the handler outlives any dlclose. */
void sg_exit_install(void)
{
    __cxa_atexit(at_exit, NULL, NULL);
}
