/* SPDX-License-Identifier: Apache-2.0 */
/* Sparse vector clocks: sorted (stream index, sequence) pairs. A clock says,
 * for each stream, how much of its tracked work is known to come before. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"

static long find(const struct sg_vc *vc, uint32_t stream)
{
    long lo = 0, hi = (long)vc->n - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (vc->e[mid].stream == stream)
            return mid;
        if (vc->e[mid].stream < stream)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -(lo + 1);
}

uint64_t sg_vc_get(const struct sg_vc *vc, uint32_t stream)
{
    long i = find(vc, stream);
    return i >= 0 ? vc->e[i].seq : 0;
}

static int reserve(struct sg_vc *vc, uint32_t n)
{
    if (n <= vc->cap)
        return 0;
    uint32_t cap = vc->cap ? vc->cap * 2 : 4;
    while (cap < n)
        cap *= 2;
    struct sg_vc_entry *e = realloc(vc->e, cap * sizeof *e);
    if (!e)
        return -1;
    vc->e = e, vc->cap = cap;
    return 0;
}

void sg_vc_raise(struct sg_vc *vc, uint32_t stream, uint64_t seq)
{
    long i = find(vc, stream);
    if (i >= 0) {
        if (vc->e[i].seq < seq)
            vc->e[i].seq = seq;
        return;
    }
    /* Out of memory loses ordering knowledge: more reports, never fewer. */
    if (seq == 0 || reserve(vc, vc->n + 1) < 0)
        return;
    size_t at = (size_t)(-i - 1);
    memmove(&vc->e[at + 1], &vc->e[at], (vc->n - at) * sizeof vc->e[0]);
    vc->e[at].stream = stream, vc->e[at].seq = seq;
    vc->n++;
}

void sg_vc_join(struct sg_vc *dst, const struct sg_vc *src)
{
    for (uint32_t i = 0; i < src->n; i++)
        sg_vc_raise(dst, src->e[i].stream, src->e[i].seq);
}

void sg_vc_copy(struct sg_vc *dst, const struct sg_vc *src)
{
    dst->n = 0;
    if (src->n == 0 || reserve(dst, src->n) < 0)
        return;
    memcpy(dst->e, src->e, src->n * sizeof src->e[0]);
    dst->n = src->n;
}

void sg_vc_free(struct sg_vc *vc)
{
    free(vc->e);
    vc->e = NULL, vc->n = vc->cap = 0;
}
