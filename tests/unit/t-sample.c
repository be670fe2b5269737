/* SPDX-License-Identifier: Apache-2.0 */
/* The sampled mode's decisions (model/sample.c): a site's first
 * sample_first copies guarded, then the last of each run of sample; sites
 * (native stack and innermost Python frame) counted apart, a Python frame
 * named only where an interpreter names it; a full table guards every copy
 * of a new site; sample=0 guards all. */
#include <string.h>

#include "base/options.h"
#include "base/stats.h"
#include "driver/eventpool.h"
#include "model/model.h"
#include "model/sample.h"
#include "unit.h"

/* The copy table (which holds sg_model_lock) gives events back to the
 * driver floor's pool; no copy is made here. */
void sg_event_pool_put(CUcontext ctx, CUevent e)
{
    (void)ctx, (void)e;
}

/* A site whose stack is {0x1000, tag}. */
static int guard_at(uintptr_t tag)
{
    uintptr_t pcs[2] = { 0x1000, tag };
    sg_lock(&sg_model_lock);
    int g = sg_sample_should_guard(pcs, 2, NULL, 0);
    sg_unlock(&sg_model_lock);
    return g;
}

static int guard_at_python(uintptr_t code, int lasti)
{
    uintptr_t pcs[1] = { 0x2000 };
    struct sg_pyframe py[2] = { { code, lasti }, { 0x77, 4 } };
    sg_lock(&sg_model_lock);
    int g = sg_sample_should_guard(pcs, 1, py, 2);
    sg_unlock(&sg_model_lock);
    return g;
}

/* The decisions for n copies at a site, as a string of 1 and 0. */
static const char *pattern(uintptr_t tag, int n)
{
    static char buf[64];
    for (int i = 0; i < n; i++)
        buf[i] = (char)('0' + guard_at(tag));
    buf[n] = '\0';
    return buf;
}

static void check_rates(void)
{
    sg_opt.sample = 0;
    CHECK(strcmp(pattern(1, 6), "111111") == 0, "sample=0: every copy guarded");
    struct sg_sample_site s;
    CHECK(!sg_sample_site_get(0, &s), "sample=0: no site kept");

    sg_opt.sample = 3, sg_opt.sample_first = 2;
    CHECK(strcmp(pattern(2, 12), "110010010010") == 0,
          "sample=3, sample_first=2: the first two, then the last of each run of three");
    CHECK(sg_stat_get(SG_STAT_copies_sampled_out) == 7, "seven copies counted as sampled out");
    CHECK(sg_sample_site_get(0, &s) && s.guarded == 5 && s.sampled_out == 7 && s.npcs == 2 &&
              s.pcs[1] == 2,
          "the site's counts and its stack");

    sg_opt.sample = 1;
    CHECK(strcmp(pattern(3, 5), "11111") == 0, "sample=1: every copy guarded");
    sg_opt.sample = 2, sg_opt.sample_first = 0;
    CHECK(strcmp(pattern(4, 6), "010101") == 0, "sample_first=0: the second of each two");
}

static void check_sites(void)
{
    sg_opt.sample = 3, sg_opt.sample_first = 1;
    char a[10], b[10];
    for (int i = 0; i < 9; i++) {
        a[i] = (char)('0' + guard_at(10));
        b[i] = (char)('0' + guard_at(11));
    }
    a[9] = b[9] = '\0';
    CHECK(strcmp(a, "100100100") == 0 && strcmp(b, "100100100") == 0,
          "two interleaved sites, each counted on its own");
    CHECK(guard_at_python(0x500, 10) && guard_at_python(0x500, 12) && guard_at_python(0x501, 10),
          "a Python frame's code and line make sites of one native stack");
    CHECK(!guard_at_python(0x500, 10), "the same Python line is the same site");
    struct sg_sample_site site;
    int named = 0, python_sites = 0;
    for (int i = 0; sg_sample_site_get(i, &site); i++)
        if (site.npcs == 1 && site.pcs[0] == 0x2000)
            python_sites++, named += site.has_py;
    CHECK(python_sites == 3 && named == 0,
          "no interpreter here: the three Python sites keep no name (their native stack names them)");
}

static void check_full(void)
{
    struct sg_sample_site s;
    int used = 0;
    while (sg_sample_site_get(used, &s))
        used++;
    sg_opt.sample = 1000, sg_opt.sample_first = 1;
    for (uintptr_t tag = 100000; used < SG_SAMPLE_SITES; tag++, used++)
        guard_at(tag);
    CHECK(sg_sample_unplaced() == 0, "a table just full has placed every site");
    CHECK(guard_at(1) && guard_at(1) && guard_at(1), "a new site finding it full: always guarded");
    CHECK(sg_sample_unplaced() == 3, "and counted apart");
    CHECK(!guard_at(100000), "a site in the table is still sampled");
    CHECK(sg_sample_site_get(SG_SAMPLE_SITES - 1, &s) && !sg_sample_site_get(SG_SAMPLE_SITES, &s),
          "the table holds SG_SAMPLE_SITES sites");

    sg_sample_after_fork_child();
    CHECK(!sg_sample_site_get(0, &s) && sg_sample_unplaced() == 0, "a forked child starts anew");
    CHECK(guard_at(100000), "its sites are guarded on their first copies again");
}

int main(void)
{
    check_rates();
    check_sites();
    check_full();
    return unit_done();
}
