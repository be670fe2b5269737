/* SPDX-License-Identifier: Apache-2.0 */
/* Things every floor of libsyncguard uses: branch hints, thread-local
 * storage, the recursion guard ("inside syncguard") and whether start-up
 * has finished. */
#ifndef SG_BASE_COMMON_H
#define SG_BASE_COMMON_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SG_UNUSED __attribute__((unused))
#define SG_LIKELY(x) __builtin_expect(!!(x), 1)
#define SG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Thread-local state of syncguard. The library is loaded at start-up
 * (preloaded), so its TLS is static: initial-exec access is a plain load,
 * with no __tls_get_addr call, which may allocate and is no place for a
 * signal handler or a hot path. */
#define SG_TLS __thread __attribute__((tls_model("initial-exec")))

/* Depth of syncguard frames on this thread. While it is non-zero, calls
 * that syncguard itself makes into the driver pass through the wrappers
 * untouched, and a fault on this thread is a syncguard bug, not a race. */
extern SG_TLS int sg_in_syncguard;

/* Runs the statement (block) after it as syncguard's own code, one level
 * deeper in sg_in_syncguard: SG_INSIDE_SYNCGUARD { ... }. Leave the block
 * only at its end: a return, break or goto out of it would skip the way
 * back out. */
#define SG_INSIDE_SYNCGUARD                                                       \
    for (int sg_inside_ = (sg_in_syncguard++, 1); sg_inside_;                      \
         sg_inside_ = 0, sg_in_syncguard--)

/* Start-up's progress (preload/init.c moves it on; anyone may ask). */
enum sg_init_state { SG_INIT_NONE, SG_INIT_RUNNING, SG_INIT_DONE };
extern atomic_int sg_init_state;
/* Whether start-up has finished. */
int sg_initialized(void);

#endif
