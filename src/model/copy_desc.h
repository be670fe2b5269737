/* SPDX-License-Identifier: Apache-2.0 */
/* What the enqueueing shim knows of one guarded host range, declared once.
 * Three structs carry it, each a step further: the intercepted call
 * (struct copy_call, life/site.h), the request to the model (struct
 * sg_copy_request, life/life.h) and the copy's slot (struct sg_copy,
 * model/copies.h). Each embeds it with SG_COPY_DESC, which makes the
 * fields members of the embedding struct (c->api, c->base) and the whole
 * of them one member too (c->desc), so that one step hands them to the
 * next in one assignment (as the Linux kernel's struct_group does). The
 * stream is not among them: the shim names it (CUstream, per-thread or
 * not), the slot keeps the model's stream instead. Plain data: copied in
 * the fault handler with the rest of a slot. */
#ifndef SG_MODEL_COPY_DESC_H
#define SG_MODEL_COPY_DESC_H

#include <stdint.h>

#include "model/shape.h"

#define SG_COPY_DESC_FIELDS                                                                     \
    const char *api;       /* the entry point, for reports */                                  \
    const char *kernel;    /* a kernel launch's kernel (its name, kept for good); NULL: none */ \
    uintptr_t base;        /* the host bytes start here... */                                  \
    struct sg_shape shape; /* ...and these of them are the range's (model/shape.h) */          \
    uint64_t value;        /* SG_GUARD_FLAG: what the device stores (the range's bytes) */      \
    int guard;             /* enum sg_guard_kind */                                             \
    unsigned char origin;  /* enum sg_origin: what device work the range belongs to */      \
    unsigned char learnt;  /* SG_ORIGIN_KERNEL: guarded as the kernel's learnt access set      \
                              says (learn/), not by a guess: accesses are checked like a copy's */

struct sg_copy_desc {
    SG_COPY_DESC_FIELDS
};

/* In a struct: the fields, and all of them as the member desc. */
#define SG_COPY_DESC                     \
    union {                              \
        struct {                         \
            SG_COPY_DESC_FIELDS          \
        };                               \
        struct sg_copy_desc desc;        \
    }

#endif
