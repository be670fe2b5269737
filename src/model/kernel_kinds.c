/* SPDX-License-Identifier: Apache-2.0 */
/* Learnt kernel kinds (model/kernel_kinds.h): an open-addressed table of
 * name hashes. A full table learns nothing more: later kernels stay
 * unknown, which costs the first read's bounded wait, never a report. */
#include "config.h"

#include <stdint.h>

#include "model/kernel_kinds.h"

#define KINDS_SLOTS 4096 /* a power of two; distinct kernels given pinned memory */
#define KINDS_PROBES 16

static struct {
    uint64_t hash; /* 0: empty */
    unsigned char kind;
} kinds[KINDS_SLOTS];

/* FNV-1a, never 0 (0 marks an empty slot). */
static uint64_t name_hash(const char *name)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h ? h : 1;
}

/* The slot holding hash (*found 1), or the empty slot where it would go
 * (*found 0); *found -1 when neither is within reach. */
static unsigned find_slot(uint64_t hash, int *found)
{
    for (unsigned i = 0; i < KINDS_PROBES; i++) {
        unsigned at = (unsigned)(hash + i) & (KINDS_SLOTS - 1);
        if (kinds[at].hash == hash || kinds[at].hash == 0) {
            *found = kinds[at].hash == hash;
            return at;
        }
    }
    *found = -1;
    return 0;
}

enum sg_kernel_kind sg_kernel_kind_of(const char *name)
{
    if (!name)
        return SG_KERNEL_UNKNOWN;
    int found;
    unsigned at = find_slot(name_hash(name), &found);
    return found == 1 ? (enum sg_kernel_kind)kinds[at].kind : SG_KERNEL_UNKNOWN;
}

void sg_kernel_kind_learn(const char *name, enum sg_kernel_kind kind)
{
    if (!name || kind == SG_KERNEL_UNKNOWN)
        return;
    uint64_t hash = name_hash(name);
    int found;
    unsigned at = find_slot(hash, &found);
    if (found != 0)
        return; /* known already (the first answer stays), or no room */
    kinds[at].hash = hash;
    kinds[at].kind = (unsigned char)kind;
}
