/* SPDX-License-Identifier: Apache-2.0 */
/* What memory the rest of an interrupted rep string instruction will read
 * and write (src/fault/strings.c). */
#ifndef SG_FAULT_STRINGS_H
#define SG_FAULT_STRINGS_H

#include <stdint.h>
#include <ucontext.h>

struct sg_string_op {
    int nread, nwrite;
    uintptr_t read_lo[2], read_hi[2];
    uintptr_t write_lo, write_hi;
};

/* 1 and *op filled if the context's instruction is a rep string
 * instruction; 0 otherwise. Signal-safe. */
int sg_decode_string_op(const ucontext_t *uc, struct sg_string_op *op);

/* 1 if the context's instruction is an atomic read-modify-write of
 * memory (lock prefix, xchg). Signal-safe. */
int sg_is_atomic_rmw(const ucontext_t *uc);

#endif
