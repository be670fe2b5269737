/* SPDX-License-Identifier: Apache-2.0 */
/* Deciding whether a race is reported: the same race site (same copy site,
 * same access site, same context label) is reported once and counted; a race a suppression
 * matches is counted, not reported. Reporter thread only, except the
 * counts, read at exit. */
#include "config.h"

#include <string.h>

#include "base/hash.h"
#include "base/self.h"
#include "report/api.h"
#include "report/suppress.h"
#include "report/view.h"

#define DEDUP_SLOTS 1024

/* One race site seen in this process: reported, or suppressed by supp. */
struct seen {
    uint64_t key;
    unsigned long count; /* occurrences, the first included */
    int supp;            /* index of the suppression that matched, or -1 */
    int api;             /* its handle in the C API's table, or -1 */
};

static struct seen seen[DEDUP_SLOTS];
static unsigned long written, repeats, suppressed, by_class[SG_NCLASSES];

unsigned long sg_reports_written(void)
{
    return __atomic_load_n(&written, __ATOMIC_RELAXED);
}

static int to_names(const struct sg_stack_view *st, struct sg_frame_names *out)
{
    for (int i = 0; i < st->n; i++) {
        const struct sg_frame_view *f = &st->f[i];
        out[i].function = f->known ? f->sym.function : NULL;
        out[i].file = f->known ? f->sym.file : NULL;
        out[i].module = f->known && !f->python ? f->sym.module : NULL;
    }
    return st->n;
}

static int find_suppression(const struct sg_race_view *v)
{
    static struct sg_frame_names a[SG_SHOWN_MAX], c[SG_SHOWN_MAX];
    if (sg_suppressions_count() == 0)
        return -1;
    int na = to_names(&v->access, a), nc = to_names(&v->copy, c);
    return sg_suppress_find(v->race->kind, a, na, c, nc);
}

static uint64_t race_key(const struct sg_race *r)
{
    uint64_t h = SG_HASH_SEED ^ (uint64_t)r->kind;
    const uintptr_t *pcs[2] = { r->pcs, r->copy.pcs };
    const int n[2] = { r->npcs, r->copy.npcs };
    for (int s = 0; s < 2; s++)
        for (int i = 0, used = 0; i < n[s] && used < 4; i++)
            if (!sg_self_contains(pcs[s][i]))
                h = sg_hash_mix(h, pcs[s][i]), used++;
    /* Python programs reach copies and reads through the same native code
     * from many lines: the innermost Python frames tell those sites apart. */
    const struct sg_pyframe *py[2] = { r->npy ? &r->py[0] : NULL,
                                       r->copy.npy ? &r->copy.py[0] : NULL };
    for (int s = 0; s < 2; s++)
        if (py[s])
            h = sg_hash_mix(h, py[s]->code ^ ((uint64_t)(unsigned)py[s]->lasti << 32));
    /* The same site in another context (another test, say) is a finding of
     * its own, with its own stacks: the reader of that test's report needs
     * them. Within one context repeats are still counted, not shown. */
    for (const char *c = r->context; *c; c++)
        h = sg_hash_mix(h, (unsigned char)*c);
    return h ? h : 1;
}

/* The entry of this race site: found (count > 0) or new (count 0); NULL
 * when the table is full, and then the race is reported again rather than
 * lost. */
static struct seen *seen_slot(uint64_t key)
{
    for (unsigned i = 0; i < DEDUP_SLOTS; i++) {
        struct seen *s = &seen[(key + i) % DEDUP_SLOTS];
        if (s->key == key || s->key == 0) {
            s->key = key;
            return s;
        }
    }
    return NULL;
}

/* What sg_report_write says of a suppressed race. */
static enum sg_decision count_suppressed(int supp)
{
    suppressed++;
    sg_suppress_hit(supp);
    return SG_DECIDED_SUPPRESSED;
}

enum sg_decision sg_decide(const struct sg_race *r, struct sg_race_view *v)
{
    v->race = r;
    v->key = race_key(r);
    struct seen *s = seen_slot(v->key);
    if (s && s->count++ > 0) {
        if (s->supp >= 0)
            return count_suppressed(s->supp);
        repeats++;
        sg_api_race_again(s->api);
        return SG_DECIDED_REPEAT;
    }
    sg_view_stacks(v);
    int supp = find_suppression(v);
    if (s)
        s->supp = supp, s->api = -1;
    if (supp >= 0)
        return count_suppressed(supp);
    return SG_DECIDED_REPORT;
}

void sg_decided_reported(const struct sg_race_view *v, int api)
{
    struct seen *s = seen_slot(v->key);
    if (s)
        s->api = api;
    by_class[sg_race_class_of(v->race->kind)]++;
    __atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
}

void sg_report_counts(struct sg_report_counts *out)
{
    out->written = written, out->repeats = repeats, out->suppressed = suppressed;
    memcpy(out->by_class, by_class, sizeof by_class);
}

void sg_decided_each_reported(void (*fn)(uint64_t key, unsigned long count, void *), void *arg)
{
    for (unsigned i = 0; i < DEDUP_SLOTS; i++)
        if (seen[i].count && seen[i].supp < 0)
            fn(seen[i].key, seen[i].count, arg);
}

void sg_decide_after_fork_child(void)
{
    memset(seen, 0, sizeof seen);
    written = repeats = suppressed = 0;
    memset(by_class, 0, sizeof by_class);
}
