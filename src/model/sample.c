/* SPDX-License-Identifier: Apache-2.0 */
/* The sampled mode's table of enqueue sites: open addressing on a hash of
 * the site, fixed size, mapped once on first use, used under
 * sg_model_lock. A site that finds it full is guarded on every copy: a
 * full table costs speed, never a missed race. */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "base/log.h"
#include "base/options.h"
#include "base/stats.h"
#include "model/model.h"
#include "model/sample.h"

/* The sites in the order they appeared, and a hash index into them. */
#define INDEX_SLOTS (2 * SG_SAMPLE_SITES)
struct table {
    int index[INDEX_SLOTS]; /* 0: empty; else 1 + a site's place */
    struct sg_sample_site site[SG_SAMPLE_SITES];
    int used;
    unsigned long unplaced;
};

static struct table *table;
static int map_failed;

/* 64-bit mix of the native stack and the innermost Python frame: PyTorch
 * enqueues every copy from the same native stack, whoever called it. */
static uint64_t site_key(const uintptr_t *pcs, int npcs, const struct sg_pyframe *py, int npy)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < npcs; i++)
        h = (h ^ pcs[i]) * 0x100000001b3ull;
    if (npy > 0)
        h = (h ^ py[0].code ^ (uint64_t)(uint32_t)py[0].lasti << 40) * 0x100000001b3ull;
    h ^= h >> 29;
    return h ? h : 1;
}

static struct table *table_get(void)
{
    if (table || map_failed)
        return table;
    void *p = mmap(NULL, sizeof *table, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        map_failed = 1;
        sg_log_error("cannot map the sampled mode's table of sites; every copy is guarded\n");
        return NULL;
    }
    table = p;
    return table;
}

/* A site's innermost Python frame is named here, by the thread running
 * it, whose code object is alive now and may not be at exit (one line-table
 * read, once per site). */
static struct sg_sample_site *site_add(struct table *t, int *slot, uint64_t key,
                                       const uintptr_t *pcs, int npcs,
                                       const struct sg_pyframe *py, int npy)
{
    struct sg_sample_site *s = &t->site[t->used++];
    *slot = t->used;
    s->key = key;
    s->npcs = npcs < SG_MAX_FRAMES ? npcs : SG_MAX_FRAMES;
    memcpy(s->pcs, pcs, (size_t)s->npcs * sizeof *pcs);
    s->has_py = npy > 0 && sg_python_symbolize(&py[0], &s->py) == 0;
    return s;
}

/* The site's entry, made on its first copy; NULL when the table is full
 * (said once, at verbosity 1). The index is never more than half full. */
static struct sg_sample_site *site_find(struct table *t, const uintptr_t *pcs, int npcs,
                                        const struct sg_pyframe *py, int npy)
{
    uint64_t key = site_key(pcs, npcs, py, npy);
    for (unsigned i = (unsigned)(key % INDEX_SLOTS);; i = (i + 1) % INDEX_SLOTS) {
        int *slot = &t->index[i];
        if (*slot && t->site[*slot - 1].key == key)
            return &t->site[*slot - 1];
        if (*slot)
            continue;
        if (t->used < SG_SAMPLE_SITES)
            return site_add(t, slot, key, pcs, npcs, py, npy);
        SG_ONCE(SG_VLOG(1, "the sampled mode's table of sites is full (%d sites); copies at "
                           "further sites are all guarded\n",
                        SG_SAMPLE_SITES));
        return NULL;
    }
}

/* A site's i-th copy (from 0): the first sample_first, then the last of
 * each run of sample copies. */
static int chosen(unsigned long i)
{
    unsigned long first = (unsigned long)sg_opt.sample_first;
    return i < first || (i - first + 1) % (unsigned long)sg_opt.sample == 0;
}

int sg_sample_should_guard(const uintptr_t *pcs, int npcs, const struct sg_pyframe *py, int npy)
{
    if (sg_opt.sample == 0)
        return 1;
    struct table *t = table_get();
    struct sg_sample_site *s = t ? site_find(t, pcs, npcs, py, npy) : NULL;
    if (!s) {
        if (t)
            t->unplaced++;
        return 1;
    }
    if (chosen(s->guarded + s->sampled_out)) {
        s->guarded++;
        return 1;
    }
    s->sampled_out++;
    sg_stat_add(SG_STAT_copies_sampled_out, 1);
    return 0;
}

int sg_sample_site_get(int i, struct sg_sample_site *out)
{
    int found = 0;
    sg_lock(&sg_model_lock);
    if (table && i >= 0 && i < table->used) {
        *out = table->site[i];
        found = 1;
    }
    sg_unlock(&sg_model_lock);
    return found;
}

unsigned long sg_sample_unplaced(void)
{
    sg_lock(&sg_model_lock);
    unsigned long n = table ? table->unplaced : 0;
    sg_unlock(&sg_model_lock);
    return n;
}

/* The parent's table goes (untouched pages cost nothing until a site
 * lands on them); a fresh one is mapped on the child's first copy. */
void sg_sample_after_fork_child(void)
{
    if (table)
        munmap(table, sizeof *table);
    table = NULL;
}
