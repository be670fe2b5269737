/* SPDX-License-Identifier: Apache-2.0 */
/* The host's access to a range guarded only because a kernel was given it
 * (kernel_args=1). syncguard does not know what the kernel does with the
 * allocation: it may write results there (the host must not read them
 * before it observes the launch), or host and kernel may signal through it
 * (a flag the kernel polls until the host sets it, a counter the host polls
 * while the kernel runs: NCCL's proxies, DeepEP, XLA's timers, NVIDIA's
 * samples). A kernel that signals may wait for the very thread that touched
 * the range, so that thread never waits for it without a bound. */
#ifndef SG_FAULT_KERNEL_ACCESS_H
#define SG_FAULT_KERNEL_ACCESS_H

#include <stdint.h>

#include "model/copies.h"

enum sg_kernel_verdict {
    SG_KERNEL_RACE,    /* a read of results: report it (sg_resolve) */
    SG_KERNEL_PASS,    /* let this access through once, the guard kept */
    SG_KERNEL_OPENED,  /* the range is a signalling channel: opened, retry */
};

/* With sg_model_lock held (and still held on return: the lock may have been
 * dropped meanwhile, for a bounded wait). c is a kernel's range that the
 * access (enum sg_access) at addr conflicts with.
 *  - a write: the kernel may be polling for it: a channel;
 *  - the first read of this launch's range: waits for the kernel at most
 *    wait_bound_ms (a kernel still running then waits for the host: a
 *    channel), then lets the read through, its address noted;
 *  - a later read of the same address: a poll, a channel;
 *  - a later read elsewhere: the host reads what the kernel wrote before it
 *    observed the launch: a race. */
enum sg_kernel_verdict sg_kernel_access(struct sg_copy *c, uintptr_t addr, int access)
    SG_REQUIRES(sg_model_lock);

#endif
