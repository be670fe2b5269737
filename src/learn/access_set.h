/* SPDX-License-Identifier: Apache-2.0 */
/* What one kernel function does with memory, per pointer-sized parameter:
 * learnt from its instrumented launches (learn/sanitizer.c), joined over
 * them, kept across runs (learn/cache.c). The parameters are numbered as
 * driver/kparams.h lists them (the j-th pointer-sized one), so a launch
 * finds the set of each argument without decoding anything more. */
#ifndef SG_LEARN_ACCESS_SET_H
#define SG_LEARN_ACCESS_SET_H

#include <stddef.h>
#include <stdint.h>

#include "driver/kparams.h"

/* How a parameter's memory was touched (any thread, any launch learnt). */
enum {
    SG_AX_READ = 1u << 0,    /* a plain load */
    SG_AX_WRITE = 1u << 1,   /* a plain store */
    SG_AX_ATOMIC = 1u << 2,  /* an atomic at device scope or narrower */
    SG_AX_ATOMSYS = 1u << 3, /* an atomic at system scope: shared with the host */
    SG_AX_POLL = 1u << 4,    /* one thread read one address again and again: a flag */
    SG_AX_ALL = (1u << 5) - 1,
};

/* A parameter's accesses: bits, and the bytes touched relative to the
 * argument's value, [lo, hi) (lo >= hi: nothing). */
struct sg_param_access {
    uint8_t bits;
    int64_t lo, hi;
};

struct sg_access_set {
    uint32_t launches;    /* launches learnt and joined */
    uint8_t varies;       /* they did not all agree: the set is their union */
    uint8_t other_bits;   /* accesses no pointer parameter accounts for */
    uint16_t nptrs;       /* pointer-sized parameters (driver/kparams.h) */
    struct sg_param_access p[SG_KPARAMS_MAX_PTRS];
};

/* An empty set for a function with nptrs pointer-sized parameters. */
void sg_access_set_init(struct sg_access_set *s, unsigned nptrs);
/* Joins one launch's set into the running one: bits and extents united,
 * launches counted, varies set when the launch differs from what was
 * known. Sets of different nptrs join over the smaller count. */
void sg_access_set_join(struct sg_access_set *into, const struct sg_access_set *launch);
/* 1 when the two say the same (launch counts aside). */
int sg_access_set_equal(const struct sg_access_set *a, const struct sg_access_set *b);

/* What a launch does with its j-th pointer argument's memory, for guarding
 * host memory. */
enum sg_param_use {
    SG_USE_NONE,    /* not touched */
    SG_USE_READS,   /* only read: guard against host writes */
    SG_USE_WRITES,  /* written (maybe read too): guard every host access */
    SG_USE_SIGNALS, /* a synchronization variable: never guard */
};
enum sg_param_use sg_access_use(const struct sg_access_set *s, unsigned j);

/* "r", "w", "rw", "atomic", "atomsys", "poll" and their joins ("rw+atomic"),
 * "-" for nothing: for the verbosity=2 line and syncguard-report. */
const char *sg_access_bits_name(unsigned bits, char *buf, size_t size);

#endif
