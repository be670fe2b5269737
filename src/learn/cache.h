/* SPDX-License-Identifier: Apache-2.0 */
/* Learnt access sets by module image and function name, in memory and on
 * disk, so that a second run of a program learns nothing (learn/learn.h).
 * A module image is known by its content: a hash of its bytes and their
 * number. The file format is learn/cache_file.c's. Normal context only;
 * a short lock inside. */
#ifndef SG_LEARN_CACHE_H
#define SG_LEARN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "learn/access_set.h"

struct sg_module_key {
    uint64_t hash;
    uint64_t size;
};
struct sg_module_key sg_module_key_of(const void *image, size_t size);

/* The set known for (module, function), or NULL. The pointer stays valid
 * for the life of the process: sets are immutable once published; a later
 * put publishes a new one and keeps the old. */
const struct sg_access_set *sg_cache_find(struct sg_module_key m, const char *function);
/* Joins s into what is known for (module, function), and marks the
 * module's file to be written by the next sg_cache_save. */
void sg_cache_put(struct sg_module_key m, const char *function, const struct sg_access_set *s);
/* Reads the module's file into memory, once per module per process. A
 * missing file is a miss; an unreadable or invalid one is ignored (said at
 * verbosity 1, naming it and why) and rewritten at the next save. 1 when
 * sets of the module are known (from its file, or learnt in this process). */
int sg_cache_load_module(struct sg_module_key m);
/* Writes every module whose sets changed: under an exclusive flock of
 * "FILE.lock", joined with what the file on disk holds by then (another
 * process may have learnt other functions), to "FILE.tmp.PID", renamed
 * over FILE. Failures are said once at verbosity 1, never fatal. How many
 * files were written. */
int sg_cache_save(void);
/* The directory in use: option cache_dir ("off": none), else
 * $XDG_CACHE_HOME/syncguard (an absolute XDG_CACHE_HOME only), else
 * $HOME/.cache/syncguard; NULL when there is none. Resolved once. */
const char *sg_cache_dir(void);
/* fn(module, function, set, arg) for every set known in memory. */
void sg_cache_each(void (*fn)(struct sg_module_key m, const char *function, const struct sg_access_set *s,
                              void *arg),
                   void *arg);
/* For tests: forgets everything in memory and the resolved directory. */
void sg_cache_reset_for_tests(void);

#endif
