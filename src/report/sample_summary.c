/* SPDX-License-Identifier: Apache-2.0 */
/* Per-site counts of the sampled mode in the exit summary: what a user
 * needs to judge how much a sampled run looked at, and where. */
#include "config.h"

#include <stdio.h>

#include "base/log.h"
#include "base/options.h"
#include "model/sample.h"
#include "report/sample_summary.h"
#include "report/view.h"

static struct sg_sample_site site; /* over a KiB: kept off the stack */

void sg_sample_summary_text(void)
{
    if (!sg_opt.sample)
        return;
    sg_log("sampled mode: sample=%ld, sample_first=%ld; per enqueue site, copies guarded and "
           "sampled out:\n",
           sg_opt.sample, sg_opt.sample_first);
    char where[700];
    for (int i = 0; sg_sample_site_get(i, &site); i++) {
        sg_view_site(where, sizeof where, site.pcs, site.npcs, site.has_py ? &site.py : NULL);
        sg_log("  %lu guarded, %lu sampled out: %s\n", site.guarded, site.sampled_out, where);
    }
    unsigned long unplaced = sg_sample_unplaced();
    if (unplaced)
        sg_log("  %lu guarded at sites beyond the table's %d\n", unplaced, SG_SAMPLE_SITES);
}

void sg_sample_summary_json(struct sg_json *j)
{
    if (!sg_opt.sample)
        return;
    sg_json_open(j, "sampling", '{');
    sg_json_int(j, "sample", sg_opt.sample);
    sg_json_int(j, "sample_first", sg_opt.sample_first);
    sg_json_int(j, "guarded_beyond_table", (long long)sg_sample_unplaced());
    sg_json_open(j, "sites", '[');
    char where[700], id[24];
    for (int i = 0; sg_sample_site_get(i, &site); i++) {
        sg_view_site(where, sizeof where, site.pcs, site.npcs, site.has_py ? &site.py : NULL);
        snprintf(id, sizeof id, "%016llx", (unsigned long long)site.key);
        sg_json_open(j, NULL, '{');
        sg_json_str(j, "site", id);
        sg_json_str(j, "where", where);
        sg_json_int(j, "guarded", (long long)site.guarded);
        sg_json_int(j, "sampled_out", (long long)site.sampled_out);
        sg_json_close(j, '}');
    }
    sg_json_close(j, ']');
    sg_json_close(j, '}');
}
