/* SPDX-License-Identifier: Apache-2.0 */
/* What learn/cache.c and learn/cache_file.c share: the in-memory table
 * (modules, each with its functions' published sets) and the file format. */
#ifndef SG_LEARN_CACHE_INT_H
#define SG_LEARN_CACHE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "learn/cache.h"

struct sg_cache_fn {
    char *name;
    const struct sg_access_set *set; /* immutable once published; replaced, never freed */
    struct sg_access_set *mine;      /* what this process learnt of it, not saved yet */
    struct sg_cache_fn *next;
};

struct sg_cache_module {
    struct sg_module_key key;
    int loaded; /* its file was read (or found missing or bad) */
    int dirty;  /* sets changed since then: to be written */
    struct sg_cache_fn *fns;
    struct sg_cache_module *next;
};

/* The file's text for m (malloc'ed, *len bytes), or NULL. */
char *sg_cache_format(const struct sg_cache_module *m, size_t *len);
/* Checks the text of a module's file and, only if all of it is valid,
 * gives each function's set to take. 0, with *why saying what is wrong,
 * when it is not. */
int sg_cache_parse(const char *buf, size_t n, struct sg_module_key key,
                   void (*take)(const char *name, const struct sg_access_set *s, void *arg), void *arg,
                   const char **why);

#endif
