/* SPDX-License-Identifier: Apache-2.0 */
/* Stack capture with libunwind. The enqueue stack of every guarded copy is
 * taken on the hot path, so it is a bare array of program counters; the
 * access stack is taken in the fault handler from the signal context. */
#include "config.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "capture/stack.h"

/* Each thread keeps its own cache of unwind information: no lock shared
 * between threads that enqueue copies at once. */
void sg_stack_init(void)
{
    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
}

int sg_stack_capture(uintptr_t *pcs, int max)
{
    int n = unw_backtrace((void **)pcs, max);
    return n < 0 ? 0 : n;
}

int sg_stack_capture_signal(ucontext_t *uc, uintptr_t *pcs, int max)
{
    unw_cursor_t cur;
    /* On x86-64 and aarch64 libunwind's context is the ucontext_t of the signal. */
    if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) < 0)
        return 0;
    int n = 0;
    do {
        unw_word_t ip;
        if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0)
            break;
        pcs[n++] = (uintptr_t)ip;
    } while (n < max && unw_step(&cur) > 0);
    return n;
}
