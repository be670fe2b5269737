/* SPDX-License-Identifier: Apache-2.0 */
/* The shadow of device memory: disjoint byte ranges in address order, each
 * with its last writer and the reads since. A sorted array: an access
 * finds its first range by binary search and splits the ones at its ends;
 * neighbours that end up alike are not merged (programs reuse the same
 * buffers, so the ranges stay as many as the buffers they cut). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "devmem/devmem_int.h"

struct range {
    uintptr_t lo, hi;
    struct sg_dev_stamp w;
    int nreads;
    struct sg_dev_stamp r[SG_DEV_READERS];
};

#define MAX_RANGES (1u << 20)

static struct range *ranges SG_GUARDED_BY(sg_model_lock);
static size_t nranges SG_GUARDED_BY(sg_model_lock), cap SG_GUARDED_BY(sg_model_lock);

/* The first range that ends after lo. */
SG_REQUIRES(sg_model_lock) static size_t first_after(uintptr_t lo)
{
    size_t a = 0, b = nranges;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (ranges[m].hi <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

static int unordered(const struct sg_dev_stamp *s, uint32_t stream, const struct sg_vc *covered)
{
    return s->op && s->stream != stream && sg_vc_get(covered, s->stream) < s->seq;
}

void sg_shadow_clashes(uintptr_t lo, uintptr_t hi, int write, uint32_t stream,
                       const struct sg_vc *covered, sg_dev_clash_fn fn, void *arg)
{
    for (size_t i = first_after(lo); i < nranges && ranges[i].lo < hi; i++) {
        const struct range *g = &ranges[i];
        uintptr_t at = g->lo > lo ? g->lo : lo;
        if (unordered(&g->w, stream, covered))
            fn(write ? SG_DEV_WAW : SG_DEV_RAW, at, &g->w, arg);
        for (int k = 0; write && k < g->nreads; k++)
            if (unordered(&g->r[k], stream, covered))
                fn(SG_DEV_WAR, at, &g->r[k], arg);
    }
}

SG_REQUIRES(sg_model_lock) static int make_room(size_t more)
{
    if (nranges + more <= cap)
        return 0;
    if (nranges + more > MAX_RANGES)
        return -1;
    size_t want = cap ? cap * 2 : 256;
    while (want < nranges + more)
        want *= 2;
    struct range *n = realloc(ranges, want * sizeof *n);
    if (!n)
        return -1;
    ranges = n, cap = want;
    return 0;
}

/* Inserts an empty range [lo, hi) at position i (room made). */
SG_REQUIRES(sg_model_lock) static void insert_at(size_t i, uintptr_t lo, uintptr_t hi)
{
    memmove(&ranges[i + 1], &ranges[i], (nranges - i) * sizeof *ranges);
    nranges++;
    memset(&ranges[i], 0, sizeof ranges[i]);
    ranges[i].lo = lo, ranges[i].hi = hi;
}

/* Cuts range i at x (inside it): two ranges with the same accesses. */
SG_REQUIRES(sg_model_lock) static void split_at(size_t i, uintptr_t x)
{
    memmove(&ranges[i + 1], &ranges[i], (nranges - i) * sizeof *ranges);
    nranges++;
    ranges[i].hi = x;
    ranges[i + 1].lo = x;
}

SG_REQUIRES(sg_model_lock) static void record(struct range *g, int write,
                                              const struct sg_dev_stamp *st)
{
    if (write) {
        g->w = *st;
        g->nreads = 0;
        return;
    }
    for (int k = 0; k < g->nreads; k++)
        if (g->r[k].stream == st->stream) {
            g->r[k] = *st;
            return;
        }
    if (g->nreads == SG_DEV_READERS) { /* the oldest read goes */
        memmove(&g->r[0], &g->r[1], (SG_DEV_READERS - 1) * sizeof g->r[0]);
        g->nreads--;
    }
    g->r[g->nreads++] = *st;
}

int sg_shadow_apply(uintptr_t lo, uintptr_t hi, int write, const struct sg_dev_stamp *st)
{
    if (lo >= hi)
        return 0;
    /* At most two splits, and one new range per gap between ranges: the
     * gaps are bounded by the ranges met plus one. */
    size_t i = first_after(lo), j = i;
    while (j < nranges && ranges[j].lo < hi)
        j++;
    if (make_room(j - i + 3) != 0) {
        sg_shadow_clear();
        return -1;
    }
    if (i < nranges && ranges[i].lo < lo && ranges[i].hi > lo) {
        split_at(i, lo);
        i++;
    }
    uintptr_t at = lo;
    while (at < hi) {
        if (i == nranges || ranges[i].lo >= hi) { /* a gap to the end */
            insert_at(i, at, hi);
        } else if (ranges[i].lo > at) { /* a gap before range i */
            insert_at(i, at, ranges[i].lo);
        } else if (ranges[i].hi > hi) {
            split_at(i, hi);
        }
        record(&ranges[i], write, st);
        at = ranges[i].hi;
        i++;
    }
    return 0;
}

void sg_shadow_forget(uintptr_t lo, uintptr_t hi)
{
    size_t i = first_after(lo), j = i;
    if (make_room(2) != 0) {
        sg_shadow_clear();
        return;
    }
    if (i < nranges && ranges[i].lo < lo && ranges[i].hi > lo)
        split_at(i++, lo);
    j = i;
    while (j < nranges && ranges[j].lo < hi)
        j++;
    if (j > i && ranges[j - 1].hi > hi) {
        split_at(j - 1, hi);
    }
    memmove(&ranges[i], &ranges[j], (nranges - j) * sizeof *ranges);
    nranges -= j - i;
}

size_t sg_shadow_ranges(void)
{
    return nranges;
}

void sg_shadow_clear(void)
{
    nranges = 0;
}
