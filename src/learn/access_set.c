/* SPDX-License-Identifier: Apache-2.0 */
/* Access sets (learn/access_set.h): joining launches, and what a set means
 * for the host memory an argument points into. */
#include "config.h"

#include <string.h>

#include "learn/access_set.h"

void sg_access_set_init(struct sg_access_set *s, unsigned nptrs)
{
    memset(s, 0, sizeof *s);
    s->nptrs = (uint16_t)(nptrs < SG_KPARAMS_MAX_PTRS ? nptrs : SG_KPARAMS_MAX_PTRS);
}

static int param_equal(const struct sg_param_access *a, const struct sg_param_access *b)
{
    if (a->bits != b->bits)
        return 0;
    int a_empty = a->lo >= a->hi, b_empty = b->lo >= b->hi;
    return a_empty == b_empty && (a_empty || (a->lo == b->lo && a->hi == b->hi));
}

int sg_access_set_equal(const struct sg_access_set *a, const struct sg_access_set *b)
{
    if (a->nptrs != b->nptrs || a->other_bits != b->other_bits)
        return 0;
    for (unsigned j = 0; j < a->nptrs; j++)
        if (!param_equal(&a->p[j], &b->p[j]))
            return 0;
    return 1;
}

static void param_join(struct sg_param_access *into, const struct sg_param_access *one)
{
    into->bits |= one->bits;
    if (one->lo >= one->hi)
        return;
    if (into->lo >= into->hi) {
        into->lo = one->lo, into->hi = one->hi;
        return;
    }
    if (one->lo < into->lo)
        into->lo = one->lo;
    if (one->hi > into->hi)
        into->hi = one->hi;
}

void sg_access_set_join(struct sg_access_set *into, const struct sg_access_set *launch)
{
    if (into->launches == 0) {
        uint32_t launches = launch->launches ? launch->launches : 1;
        *into = *launch;
        into->launches = launches;
        return;
    }
    if (!sg_access_set_equal(into, launch))
        into->varies = 1;
    into->varies |= launch->varies;
    unsigned n = into->nptrs < launch->nptrs ? into->nptrs : launch->nptrs;
    into->nptrs = (uint16_t)n;
    for (unsigned j = 0; j < n; j++)
        param_join(&into->p[j], &launch->p[j]);
    into->other_bits |= launch->other_bits;
    into->launches += launch->launches ? launch->launches : 1;
}

enum sg_param_use sg_access_use(const struct sg_access_set *s, unsigned j)
{
    if (j >= s->nptrs)
        return SG_USE_WRITES; /* not learnt: assume the worst */
    unsigned bits = s->p[j].bits;
    if (bits & (SG_AX_ATOMSYS | SG_AX_POLL))
        return SG_USE_SIGNALS;
    if (bits & (SG_AX_WRITE | SG_AX_ATOMIC))
        return SG_USE_WRITES;
    return bits & SG_AX_READ ? SG_USE_READS : SG_USE_NONE;
}

const char *sg_access_bits_name(unsigned bits, char *buf, size_t size)
{
    static const char *const names[] = { "r", "w", "atomic", "atomsys", "poll" };
    size_t at = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(bits & (1u << i)))
            continue;
        /* "rw" rather than "r+w": the common case reads best */
        const char *sep = at == 0 || (i == 1 && (bits & SG_AX_READ)) ? "" : "+";
        size_t need = strlen(sep) + strlen(names[i]);
        if (at + need + 1 > size)
            break;
        memcpy(buf + at, sep, strlen(sep));
        memcpy(buf + at + strlen(sep), names[i], strlen(names[i]) + 1);
        at += need;
    }
    if (at == 0 && size > 1)
        memcpy(buf, "-", 2);
    return buf;
}
