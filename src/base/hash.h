/* SPDX-License-Identifier: Apache-2.0 */
/* FNV-1a, 64 bits: the keys of syncguard's fixed tables (report sites,
 * learnt kernels). Arithmetic only: safe in the fault handler. */
#ifndef SG_BASE_HASH_H
#define SG_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define SG_HASH_SEED 1469598103934665603ull

/* h with v mixed in. */
static inline uint64_t sg_hash_mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211ull;
}

/* The hash of n bytes (may be 0: a key of bytes, not a table's). */
static inline uint64_t sg_hash_bytes(const void *buf, size_t n)
{
    uint64_t h = SG_HASH_SEED;
    for (const unsigned char *p = buf, *end = p + n; p < end; p++)
        h = sg_hash_mix(h, *p);
    return h;
}

/* The hash of a NUL-terminated string, never 0 (a table's empty key). */
static inline uint64_t sg_hash_str(const char *s)
{
    uint64_t h = SG_HASH_SEED;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = sg_hash_mix(h, *p);
    return h ? h : 1;
}

#endif
