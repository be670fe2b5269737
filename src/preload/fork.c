/* SPDX-License-Identifier: Apache-2.0 */
/* fork(): the parent keeps its state; the child keeps no copy in flight,
 * no guard, no stream or event of the parent, and opens its own log. */
#include "config.h"

#include <errno.h>
#include <pthread.h>

#include "base/lock.h"
#include "base/log.h"
#include "driver/eventpool.h"
#include "fault/fault.h"
#include "guard/guard.h"
#include "life/life.h"
#include "model/model.h"
#include "preload/root.h"
#include "report/report.h"

/* The model lock is held across fork(): taken before it, given back after
 * it in the parent, reset in the child (whose only thread is this one). */
SG_ACQUIRE(sg_model_lock) static void before_fork(void)
{
    sg_lock(&sg_model_lock);
    sg_pinned_before_fork();
}

SG_RELEASE(sg_model_lock) static void after_fork_parent(void)
{
    sg_pinned_after_fork_parent();
    sg_unlock(&sg_model_lock);
}

SG_RELEASE(sg_model_lock) static void after_fork_child(void)
{
    sg_forget_tid();
    sg_lock_reset_held(&sg_model_lock);
    sg_pinned_unlock_in_child();
    sg_copies_after_fork_child();
    sg_guard_after_fork_child();
    sg_pinned_after_fork_child();
    sg_streams_after_fork_child();
    sg_gates_after_fork_child();
    sg_order_after_fork_child();
    sg_event_pool_after_fork_child();
    sg_reporter_after_fork_child();
    sg_report_after_fork_child();
    sg_log_after_fork_child();
    sg_own_stacks_after_fork_child();
    sg_in_lock_after_fork_child();
}

/* A fork that glibc does not see (syscall(SYS_fork), or a clone that
 * shares nothing): no pthread_atfork handler runs for it, so the shim of
 * syscall() (preload/libc/syscall.c) runs syncguard's own around it. */
long sg_fork_raw(long (*real)(long, ...), long number, long a1, long a2, long a3, long a4,
                 long a5)
{
    before_fork();
    long pid = real(number, a1, a2, a3, a4, a5);
    int saved_errno = errno;
    if (pid == 0)
        after_fork_child();
    else
        after_fork_parent();
    errno = saved_errno;
    return pid;
}

void sg_fork_install(void)
{
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}
