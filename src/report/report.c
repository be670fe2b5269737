/* SPDX-License-Identifier: Apache-2.0 */
/* The report of a race: decided (dedup, suppressions: decide.c) over one
 * view of it (view.c), then rendered as text (text.c) and as a JSON line
 * (race_json.c: to the json_path file, and with the text to the C API's
 * table, api.c). Reporter thread only, except the summary
 * at exit (summary.c). */
#include "config.h"

#include "base/options.h"
#include "report/api.h"
#include "report/json.h"
#include "report/report.h"
#include "report/suppress.h"
#include "report/view.h"

void sg_report_at_exit(void)
{
    sg_report_summary();
}

int sg_report_write(const struct sg_race *r)
{
    /* Both stacks of the race being written: too big for the stack of the
     * reporter thread, and only that thread uses them. */
    static struct sg_race_view v;
    switch (sg_decide(r, &v)) {
    case SG_DECIDED_SUPPRESSED:
        return 1;
    case SG_DECIDED_REPEAT:
        return 0;
    case SG_DECIDED_REPORT:
        break;
    }
    sg_view_finish(&v);
    size_t len;
    const char *text = sg_render_text(&v, &len);
    /* Rendered whether or not json_path is set: the C API hands it out. */
    sg_decided_reported(&v, sg_render_json(&v, text));
    /* The faulting thread ends the process (sg_report_act) as soon as this
     * returns: the summary first. */
    if (sg_report_consequence(1) != SG_GO_ON)
        sg_report_summary();
    return 0;
}

void sg_report_after_fork_child(void)
{
    /* The child's reports, counts and files are its own. */
    sg_decide_after_fork_child();
    sg_summary_after_fork_child();
    sg_suppressions_reset_hits();
    sg_json_after_fork_child();
    sg_api_after_fork_child();
}
