/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel functions being learnt or learnt (learn/learn_int.h). A function
 * is one module's kernel of one name; its launches reach it through one
 * or more handles (the CUfunction the API names, and a CUkernel a program
 * launched as a function), which the launch path looks up without a lock
 * at every launch: an open-addressing table whose entries are published
 * with one atomic store and never freed, as driver/kparams.c's. A module
 * unload bumps a generation: older entries no longer match. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"
#include "base/options.h"
#include "learn/learn_int.h"

#define FN_BUCKETS 1024   /* a power of two */
#define HANDLE_SLOTS 16384 /* a power of two */

static struct sg_learn_function *buckets[FN_BUCKETS];

struct handle {
    CUfunction f;
    unsigned gen;
    struct sg_learn_function *fn;
};
static struct handle *_Atomic handles[HANDLE_SLOTS];
static atomic_uint generation;

struct sg_learn_function *sg_learn_function_get(struct sg_learn_module *m, const char *name,
                                                unsigned nptrs)
{
    unsigned b = (unsigned)sg_hash_str(name) & (FN_BUCKETS - 1);
    for (struct sg_learn_function *it = buckets[b]; it; it = it->next)
        if (it->module == m && strcmp(it->name, name) == 0) {
            if (!it->nptrs)
                it->nptrs = nptrs;
            return it;
        }
    struct sg_learn_function *fn = calloc(1, sizeof *fn);
    if (!fn || !(fn->name = strdup(name))) {
        free(fn);
        return NULL;
    }
    fn->key = m->key, fn->module = m, fn->nptrs = nptrs;
    fn->next = buckets[b];
    buckets[b] = fn;
    return fn;
}

static unsigned slot_of(CUfunction f)
{
    return (unsigned)(((uintptr_t)f >> 4) * 2654435761u) & (HANDLE_SLOTS - 1);
}

struct sg_learn_function *sg_learn_function_of(CUfunction f)
{
    unsigned gen = atomic_load_explicit(&generation, memory_order_acquire);
    unsigned h = slot_of(f);
    for (unsigned i = 0; i < HANDLE_SLOTS; i++) {
        struct handle *e = atomic_load_explicit(&handles[(h + i) & (HANDLE_SLOTS - 1)],
                                                memory_order_acquire);
        if (!e)
            return NULL;
        if (e->f == f && e->gen == gen)
            return e->fn;
    }
    return NULL;
}

void sg_learn_function_bind(CUfunction f, struct sg_learn_function *fn)
{
    unsigned gen = atomic_load_explicit(&generation, memory_order_acquire);
    unsigned h = slot_of(f);
    for (unsigned i = 0; i < HANDLE_SLOTS; i++) {
        _Atomic(struct handle *) *at = &handles[(h + i) & (HANDLE_SLOTS - 1)];
        struct handle *e = atomic_load_explicit(at, memory_order_acquire);
        if (e && e->f == f && e->gen == gen && e->fn == fn)
            return;
        if (e && e->gen == gen)
            continue; /* another handle's, or f's older binding: kept */
        /* Empty, or stale: a reader that found the stale entry a moment
         * ago may still read it, so it is left allocated. */
        struct handle *n = malloc(sizeof *n);
        if (!n)
            return;
        n->f = f, n->gen = gen, n->fn = fn;
        atomic_store_explicit(at, n, memory_order_release);
        return;
    }
    SG_WARN_ONCE("more than %d kernel handles launched: later ones are not learnt\n", HANDLE_SLOTS);
}

void sg_learn_handles_forget(void)
{
    atomic_fetch_add(&generation, 1);
}

const struct sg_access_set *sg_learn_set_of(CUfunction f)
{
    if (!sg_learn_active())
        return NULL;
    struct sg_learn_function *fn = sg_learn_function_of(f);
    return fn ? atomic_load_explicit(&fn->complete, memory_order_acquire) : NULL;
}

/* "learnt kernel NAME: arg0 w [0,4096) arg2 r [0,8) ...", at verbosity 2. */
static void say_learnt(const struct sg_learn_function *fn, const struct sg_access_set *s, int from_cache)
{
    if (sg_opt.verbosity < 2)
        return;
    char line[2048], bits[48];
    size_t at = 0;
    for (unsigned j = 0; j < s->nptrs && at < sizeof line - 96; j++) {
        const struct sg_param_access *p = &s->p[j];
        if (!p->bits)
            continue;
        at += (size_t)snprintf(line + at, sizeof line - at, " ptr%u %s", j,
                               sg_access_bits_name(p->bits, bits, sizeof bits));
        if (p->lo < p->hi)
            at += (size_t)snprintf(line + at, sizeof line - at, " [%lld,%lld)", (long long)p->lo,
                                   (long long)p->hi);
    }
    if (s->other_bits && at < sizeof line - 48)
        at += (size_t)snprintf(line + at, sizeof line - at, " other %s",
                               sg_access_bits_name(s->other_bits, bits, sizeof bits));
    sg_log("learnt kernel %s (%s, %u launch%s%s):%s\n", fn->name,
           from_cache ? "from the cache" : "instrumented here", (unsigned)s->launches,
           s->launches == 1 ? "" : "es",
           s->varies ? ", data-dependent: their union" : "", at ? line : " touches no global memory");
}

void sg_learn_function_complete(struct sg_learn_function *fn, const struct sg_access_set *s,
                                int from_cache)
{
    if (atomic_load(&fn->complete))
        return;
    struct sg_access_set *copy = malloc(sizeof *copy);
    if (!copy)
        return;
    *copy = *s;
    atomic_store_explicit(&fn->complete, copy, memory_order_release);
    say_learnt(fn, copy, from_cache);
    if (fn->started && fn->module->learning > 0)
        fn->module->learning--; /* unpatched at its next launch (modules.c) */
}
