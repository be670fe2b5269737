/* SPDX-License-Identifier: Apache-2.0 */
/* Learnt kernel kinds (model/kernel_kinds.h): an open-addressed table of
 * name hashes. A full table learns nothing more: later kernels stay
 * unknown, which costs the first read's bounded wait, never a report. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "model/kernel_kinds.h"

#define KINDS_SLOTS 4096 /* a power of two; distinct kernels given pinned memory */
#define KINDS_PROBES 16

struct entry {
    uint64_t hash; /* 0: empty */
    unsigned char kind;
};

static struct entry kinds[KINDS_SLOTS];

/* name's entry; where it has none, an empty one taken for it if claim,
 * else NULL; NULL too when none is within reach. */
static struct entry *entry_of(const char *name, int claim)
{
    uint64_t hash = sg_hash_str(name);
    for (unsigned i = 0; i < KINDS_PROBES; i++) {
        struct entry *e = &kinds[(hash + i) & (KINDS_SLOTS - 1)];
        if (e->hash == hash)
            return e;
        if (e->hash == 0) {
            if (!claim)
                return NULL;
            e->hash = hash;
            return e;
        }
    }
    return NULL;
}

enum sg_kernel_kind sg_kernel_kind_of(const char *name)
{
    const struct entry *e = name ? entry_of(name, 0) : NULL;
    return e ? (enum sg_kernel_kind)e->kind : SG_KERNEL_UNKNOWN;
}

void sg_kernel_kind_learn(const char *name, enum sg_kernel_kind kind)
{
    struct entry *e = name && kind != SG_KERNEL_UNKNOWN ? entry_of(name, 1) : NULL;
    if (e && e->kind == SG_KERNEL_UNKNOWN)
        e->kind = (unsigned char)kind; /* the first answer stays */
}
