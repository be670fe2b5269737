/* Things every part of libsyncguard uses: visibility, the recursion guard,
 * and the small futex lock that the fault handler may take. */
#ifndef SYNCGUARD_COMMON_H
#define SYNCGUARD_COMMON_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SG_EXPORT __attribute__((visibility("default")))
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

/* A lock that is safe to take from the fault handler as long as the
 * interrupted code is not syncguard itself (checked with sg_in_syncguard):
 * no allocation, no pthread internals, just an atomic word and futex. */
typedef struct {
    atomic_int word; /* 0 free, 1 held, 2 held with waiters */
    atomic_long owner;
} sg_lock_t;

#define SG_LOCK_INIT { 0, 0 }

void sg_lock(sg_lock_t *l);
void sg_unlock(sg_lock_t *l);
int sg_lock_held_by_me(sg_lock_t *l);

/* The one lock around the synchronization model, the copy table and page
 * protections. Never held across a call that can block in the driver. */
extern sg_lock_t sg_model_lock;

long sg_gettid(void);

/* Initialisation: runs once, from the constructor or the first wrapper. */
void sg_init(void);
int sg_initialized(void);

#endif
