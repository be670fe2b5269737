/* SPDX-License-Identifier: Apache-2.0 */
/* What the learn floor's files share (learn/learn.h says who does what).
 * One lock, sg_learn_lock, guards modules, functions' learning state and
 * pending records; it is taken only in normal context, in the API's
 * callbacks and the launch shims, and never held across a driver call
 * other than the API's own. */
#ifndef SG_LEARN_LEARN_INT_H
#define SG_LEARN_LEARN_INT_H

#include <stdatomic.h>

#include "base/lock.h"
#include "base/thread_safety.h"
#include "learn/access_set.h"
#include "learn/cache.h"
#include "learn/learn.h"
#include "learn/sanitizer_api.h"

extern sg_lock_t sg_learn_lock;

/* The API's functions, looked up in its library (sanitizer.c). */
struct sg_san_api {
#define SG_SAN_MEMBER(name, ret, params) ret(*name) params;
    SG_SAN_FUNCTIONS(SG_SAN_MEMBER)
#undef SG_SAN_MEMBER
};
extern struct sg_san_api sg_san;
/* The API's name for result r, for messages. */
const char *sg_san_error(sg_san_result r);
/* Learning is on from now on (the library subscribed). */
void sg_learn_set_active(void);

/* ---- the floor's files, each using only those listed before it:
 * api.c, modules.c, functions.c, records.c, sanitizer.c ---- */

/* ---- modules.c ---- A loaded module. Never freed (a function keeps a
 * pointer to its module); an unloaded one is marked so. */
struct sg_learn_module {
    CUmodule module;
    CUcontext ctx;
    struct sg_module_key key;
    int loaded, patched;
    int unpatched;          /* was patched, and is no more: for good */
    int unpatch_wanted;     /* to be unpatched after the current launch */
    unsigned learning;      /* its functions started and not complete */
    unsigned launches_left; /* launches before it may be unpatched (a new module) */
    struct sg_learn_module *next;
};
/* A new module's launches kept patched, so that its functions launched
 * early are seen (modules.c). */
#define SG_LEARN_GRACE 64
/* known: the cache has a file for its image. */
struct sg_learn_module *sg_learn_module_loaded(CUmodule m, CUcontext ctx, struct sg_module_key key,
                                              int known) SG_REQUIRES(sg_learn_lock);
struct sg_learn_module *sg_learn_module_of(CUmodule m) SG_REQUIRES(sg_learn_lock);
/* m is being unloaded, or every module of ctx with it (their records
 * dropped first: records.c). */
void sg_learn_module_unloading(struct sg_learn_module *m) SG_REQUIRES(sg_learn_lock);
void sg_learn_context_destroying(CUcontext ctx) SG_REQUIRES(sg_learn_lock);
/* Patches m for learning (the device patch added to its context first);
 * 1 when it is patched. Only at its load (modules.c says why). */
int sg_learn_module_patch(struct sg_learn_module *m) SG_REQUIRES(sg_learn_lock);
/* Marks m to be unpatched when none of its functions is being learnt; the
 * unpatching itself is sg_learn_modules_unpatch_now's, outside any
 * callback (modules.c says why). */
void sg_learn_module_settle(struct sg_learn_module *m) SG_REQUIRES(sg_learn_lock);
/* After a launch's driver call returned, the lock not held. */
void sg_learn_modules_unpatch_now(void) SG_EXCLUDES(sg_learn_lock);

/* ---- functions.c ---- A kernel function of a module image, by name. */
struct sg_learn_function {
    struct sg_module_key key;
    char *name;
    struct sg_learn_module *module;
    unsigned nptrs;
    const struct sg_access_set *_Atomic complete; /* published once */
    struct sg_access_set joined;                  /* the launches read back so far */
    unsigned in_flight, collected;
    unsigned discarded; /* launches read back uninstrumented */
    int started;       /* counted in its module's learning */
    struct sg_learn_function *next;
};
/* The function named name in m, made if new (NULL without memory). */
struct sg_learn_function *sg_learn_function_get(struct sg_learn_module *m, const char *name,
                                                unsigned nptrs) SG_REQUIRES(sg_learn_lock);
/* Launches through handle f are of fn from now on. */
void sg_learn_function_bind(CUfunction f, struct sg_learn_function *fn) SG_REQUIRES(sg_learn_lock);
/* The function a handle was bound to, or NULL; lock-free. */
struct sg_learn_function *sg_learn_function_of(CUfunction f);
/* fn's set is s from now on (found in the cache, or learnt in this
 * process): published, said at verbosity 2; its module is settled at its
 * next launch. */
void sg_learn_function_complete(struct sg_learn_function *fn, const struct sg_access_set *s,
                                int from_cache) SG_REQUIRES(sg_learn_lock);
/* Handles may name other functions from now on (a module was unloaded). */
void sg_learn_handles_forget(void);

/* ---- records.c ---- The calling thread's launch being forwarded. */
struct sg_learn_prepared {
    int valid;
    CUfunction f;
    unsigned nptrs;
    uintptr_t value[SG_KPARAMS_MAX_PTRS];
    uintptr_t base[SG_KPARAMS_MAX_PTRS], end[SG_KPARAMS_MAX_PTRS];
};
const struct sg_learn_prepared *sg_learn_prepared(void);
/* Gives the launch d a record (its argument ranges from p); 1 when it will
 * be learnt. */
int sg_learn_record_start(const struct sg_san_launch_data *d, struct sg_learn_function *fn,
                          const struct sg_learn_prepared *p) SG_REQUIRES(sg_learn_lock);
/* Reads back the records of launches on stream h of ctx (h NULL: every
 * stream of ctx), which the host has just synchronized with. */
void sg_learn_records_collect(CUcontext ctx, sg_san_stream h) SG_REQUIRES(sg_learn_lock);
/* Drops the records of a module being unloaded, or of a context being
 * destroyed (module NULL), without reading them. */
void sg_learn_records_drop(CUcontext ctx, struct sg_learn_module *module) SG_REQUIRES(sg_learn_lock);

#endif
