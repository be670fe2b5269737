/* SPDX-License-Identifier: Apache-2.0 */
/* The summary, once per process: at exit, or right after the report that
 * halt_on_error or mode=abort is about to end the process on. Text (when
 * something was found, or with verbosity) and JSON. */
#include "config.h"

#include <stdio.h>

#include "base/log.h"
#include "base/options.h"
#include "base/stats.h"
#include "model/copies.h"
#include "model/sample.h"
#include "report/json.h"
#include "report/sample_summary.h"
#include "report/suppress.h"
#include "report/view.h"

static int summary_done;
/* The copy table's total at fork: a child counts only its own copies. */
static uint64_t guarded_base;

static uint64_t copies_guarded(void)
{
    return sg_copies_guarded_total() - guarded_base;
}

static void json_count(uint64_t key, unsigned long count, void *arg)
{
    struct sg_json *j = arg;
    char id[24];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)key);
    sg_json_open(j, NULL, '{');
    sg_json_str(j, "id", id);
    sg_json_int(j, "count", (long long)count);
    sg_json_close(j, '}');
}

static void json_summary(const struct sg_report_counts *n)
{
    struct sg_json j;
    sg_json_begin(&j);
    sg_json_str(&j, "type", "summary");
    sg_json_process(&j);
    sg_json_int(&j, "copies_guarded", (long long)copies_guarded());
    sg_json_open(&j, "stats", '{');
    for (int i = 0; i < SG_NSTATS; i++)
        sg_json_int(&j, sg_stat_name((enum sg_stat)i),
                    (long long)sg_stat_get((enum sg_stat)i));
    sg_json_close(&j, '}');
    sg_sample_summary_json(&j);
    sg_json_open(&j, "races", '{');
    for (int k = 0; k < SG_NCLASSES; k++)
        sg_json_int(&j, sg_race_class_name((enum sg_race_class)k), (long long)n->by_class[k]);
    sg_json_close(&j, '}');
    sg_json_int(&j, "reports", (long long)n->written);
    sg_json_int(&j, "repeats", (long long)n->repeats);
    sg_json_int(&j, "suppressed", (long long)n->suppressed);
    /* How often each reported race happened: its report line's "id". */
    sg_json_open(&j, "counts", '[');
    sg_decided_each_reported(json_count, &j);
    sg_json_close(&j, ']');
    sg_json_open(&j, "suppressions_used", '[');
    for (int i = 0; i < sg_suppressions_count(); i++) {
        const struct sg_suppression *s = sg_suppression_get(i);
        if (!s->hits)
            continue;
        sg_json_open(&j, NULL, '{');
        sg_json_str(&j, "kind", s->name);
        sg_json_str(&j, "pattern", s->pattern);
        sg_json_int(&j, "line", s->line);
        sg_json_int(&j, "hits", (long long)s->hits);
        sg_json_close(&j, '}');
    }
    sg_json_close(&j, ']');
    sg_json_end(&j);
}

/* Like TSan's "Suppressions used:": each that matched, with its hits. */
static void text_suppressions_used(void)
{
    const char *path = sg_suppressions_path();
    int header = 0;
    for (int i = 0; i < sg_suppressions_count(); i++) {
        const struct sg_suppression *s = sg_suppression_get(i);
        if (!s->hits)
            continue;
        if (!header++)
            sg_log("Suppressions used:\n  hits  suppression\n");
        sg_log_printf("%6lu  %s:%s (%s:%d)\n", s->hits, s->name, s->pattern, path ? path : "?",
                      s->line);
    }
}

static void text_summary(const struct sg_report_counts *n)
{
    unsigned long long guarded = (unsigned long long)copies_guarded();
    char classes[256];
    size_t len = 0;
    classes[0] = '\0';
    for (int k = 0; k < SG_NCLASSES && len < sizeof classes; k++) {
        int w = snprintf(classes + len, sizeof classes - len, "%s%lu %s", k ? ", " : "",
                         n->by_class[k], sg_race_class_name((enum sg_race_class)k));
        if (w < 0)
            break;
        len += (size_t)w;
    }
    sg_log("%lu race%s reported (%s), %lu repeat%s not shown, %lu suppressed; %llu cop%s "
           "guarded\n",
           n->written, n->written == 1 ? "" : "s", classes, n->repeats, n->repeats == 1 ? "" : "s",
           n->suppressed, guarded, guarded == 1 ? "y" : "ies");
    if (sg_opt.verbosity >= 1) {
        char stats[1024];
        sg_stats_format(stats, sizeof stats);
        sg_log("stats: %s\n", stats);
        sg_sample_summary_text();
    }
    text_suppressions_used();
}

/* Once per process: at exit, or right after the report that halt_on_error
 * or mode=abort is about to end the process on. */
void sg_report_summary(void)
{
    if (__atomic_exchange_n(&summary_done, 1, __ATOMIC_ACQ_REL))
        return;
    struct sg_report_counts n;
    sg_report_counts(&n);
    int something = n.written > 0 || n.suppressed > 0;
    if (something || sg_opt.verbosity >= 1)
        text_summary(&n);
    /* A process that never guarded a copy (a shell, a compiler that
     * inherited LD_PRELOAD) leaves no JSON file behind. */
    if (sg_json_enabled() && (something || copies_guarded() > 0 || sg_opt.verbosity >= 1))
        json_summary(&n);
}

void sg_summary_after_fork_child(void)
{
    summary_done = 0;
    guarded_base = sg_copies_guarded_total();
    sg_sample_after_fork_child();
}
