/* SPDX-License-Identifier: Apache-2.0 */
/* One view of a race, made once by the reporter thread and rendered twice
 * (text.c, race_json.c): the symbolized stacks, where it happened, and why
 * the host's synchronization did not cover the copy. */
#ifndef SG_REPORT_VIEW_H
#define SG_REPORT_VIEW_H

#include <stdint.h>

#include "capture/python.h"
#include "report/json.h"
#include "report/report.h"
#include "report/symbolize.h"

/* Room for inlined functions: a pc may stand for several frames. */
#define SG_SHOWN_MAX (2 * SG_MAX_FRAMES + SG_MAX_PYFRAMES)
#define SG_REASON_MAX 1024

/* A frame as shown: native (pc, symbol) or Python (function, file, line
 * in sym). known: it could be symbolized. */
struct sg_frame_view {
    int python, known;
    uintptr_t pc;
    struct sg_symbol sym;
};

/* The native frames, then the Python ones. */
struct sg_stack_view {
    int n;
    struct sg_frame_view f[SG_SHOWN_MAX];
};

struct sg_race_view {
    const struct sg_race *race;
    uint64_t key; /* the race site, its report's id */
    struct sg_stack_view access, copy;
    char where[700]; /* "file:line in function" of the access, for SUMMARY */
    /* What the host synchronized with since the copy was enqueued (none:
     * nreasons 0), each with why it does not cover the copy. */
    int nreasons;
    char reasons[SG_RACE_SYNCS][SG_REASON_MAX];
};

/* ---- view.c ---- */
/* Symbolizes both stacks of v->race (frames inside syncguard left out). */
void sg_view_stacks(struct sg_race_view *v);
/* Fills where and the reasons: what a report shows beyond the stacks. */
void sg_view_finish(struct sg_race_view *v);
/* "file:line in function" of an enqueue site, as SUMMARY names places:
 * its Python frame py (named while it ran) when there is one, else the
 * innermost native frame of pcs outside the GPU libraries
 * (sg_symbol_in_gpu_library), else the innermost. */
void sg_view_site(char *where, size_t len, const uintptr_t *pcs, int npcs,
                  const struct sg_pysym *py);
/* How many of a stack's frames are native (they come first). */
int sg_stack_native_count(const struct sg_stack_view *st);

/* ---- decide.c: whether a race is reported ---- */
enum sg_decision {
    SG_DECIDED_REPORT,     /* a new race site: report it (stacks symbolized) */
    SG_DECIDED_REPEAT,     /* a site reported before: counted */
    SG_DECIDED_SUPPRESSED, /* a suppression matched: counted */
};
/* Dedup and suppressions; fills v->race, v->key and, for a new site,
 * the stacks. */
enum sg_decision sg_decide(const struct sg_race *r, struct sg_race_view *v);
/* The race was reported: it counts; api is its handle in the C API's
 * table (report/api.h), which its repeats are counted in. */
void sg_decided_reported(const struct sg_race_view *v, int api);
/* What was decided so far in this process. */
struct sg_report_counts {
    unsigned long written, repeats, suppressed;
    unsigned long by_class[SG_NCLASSES];
};
void sg_report_counts(struct sg_report_counts *out);
/* Calls fn for each race site reported, with how often it happened. */
void sg_decided_each_reported(void (*fn)(uint64_t key, unsigned long count, void *), void *arg);
void sg_decide_after_fork_child(void);

/* ---- the renderings ---- */
/* text.c: the sanitizer-style report, to the log. Returns the same text
 * without colors (NUL-terminated, *len bytes), for the C API; valid until
 * the next call. */
const char *sg_render_text(const struct sg_race_view *v, size_t *len);
/* race_json.c: the same as one JSON line (with json_path), and as the C
 * API's entry, with text added; returns the entry's handle
 * (sg_api_race_first). */
int sg_render_json(const struct sg_race_view *v, const char *text);
/* The process members of every JSON line: pid, and rank as log_path's %r
 * gives it (null when it is not a number). */
void sg_json_process(struct sg_json *j);

/* ---- summary.c: once per process, at exit or before a halt ---- */
void sg_report_summary(void);
void sg_summary_after_fork_child(void);

#endif
