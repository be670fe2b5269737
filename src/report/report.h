/* SPDX-License-Identifier: Apache-2.0 */
/* Race reports. The fault handler fills a record with raw facts (no
 * allocation, no stdio); the reporter thread symbolizes and prints it. */
#ifndef SG_REPORT_REPORT_H
#define SG_REPORT_REPORT_H

#include <stdint.h>

#include "base/context.h"
#include "model/copies.h"
#include "model/sync.h"

#define SG_RACE_SYNCS 3

/* Kinds (what the fault handler found) and classes (what reports name and
 * count), from race_kinds.def. */
enum sg_race_kind {
#define SG_RACE_CLASS(id, name, access, ACCESS)
#define SG_RACE_KIND(id, class) SG_RACE_##id,
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
};

enum sg_race_class {
#define SG_RACE_CLASS(id, name, access, ACCESS) SG_CLASS_##id,
#define SG_RACE_KIND(id, class)
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
};

enum {
#define SG_RACE_CLASS(id, name, access, ACCESS) +1
#define SG_RACE_KIND(id, class)
    SG_NCLASSES = 0
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
};

struct sg_race {
    enum sg_race_kind kind;
    int in_flight; /* 1: the copy had not finished; 0: it had (latent) */
    const char *access_api; /* copy-overlap: the second copy's entry point; else the driver
                              * call the access was made inside (model/incall.h), or NULL */
    uintptr_t addr;
    long tid;
    int npcs;
    uintptr_t pcs[SG_MAX_FRAMES];
    int npy;
    struct sg_pyframe py[SG_MAX_PYFRAMES];
    struct sg_copy copy; /* a copy of the copy's slot at fault time */
    /* What the host synchronized with since the copy was enqueued, newest
     * first: the report says why none of it covers the copy. */
    int nsyncs;
    struct sg_sync_site syncs[SG_RACE_SYNCS];
    /* Device races (devmem/): the later operation's stream, and whether
     * syncguard made it wait for the earlier one's. */
    struct sg_stream_info access_stream;
    int device_fixed;
    /* What the program said it was doing (syncguard_set_context). */
    char context[SG_CONTEXT_MAX];
};

/* Hands a race to the reporter thread and waits (bounded) until it is
 * written. Returns 1 if a suppression matched it. Async-signal-safe. */
int sg_report_race(const struct sg_race *race);
/* What a race leads to (consequence.c, the one place that decides it):
 * reported (handed to sg_report_race, no suppression matched), the process
 * aborts with mode=abort, ends with exitcode with halt_on_error, else goes
 * on; a race not reported, or suppressed, leads to nothing. */
enum sg_consequence { SG_GO_ON, SG_HALT, SG_ABORT };
enum sg_consequence sg_report_consequence(int reported);
/* Does what sg_report_consequence(reported) decides: returns only if the
 * program goes on. Async-signal-safe. */
void sg_report_act(int reported);
/* Starts the reporter thread if it is not running (normal context). */
void sg_reporter_ensure_started(void);
/* Writes the text report of a race; reporter thread only. Returns 1 if a
 * suppression matched it. */
int sg_report_write(const struct sg_race *race);
/* Counters, for the exit status and summary. */
unsigned long sg_reports_written(void);
void sg_report_at_exit(void);
/* In a forked child: a reporter thread of its own (started when needed),
 * counts and dedup from zero, its own JSON file. */
void sg_reporter_after_fork_child(void);
/* At exit, before the summary: waits (boundedly) for the reports still
 * pending in the reporter's ring, so that the summary and exit status count
 * them. */
void sg_reporter_drain(void);
void sg_report_after_fork_child(void);
/* The class a kind is counted in, and the names of classes (kinds.c). */
enum sg_race_class sg_race_class_of(enum sg_race_kind kind);
const char *sg_race_class_name(enum sg_race_class c);
/* "read", "write", "free" (upper: "READ", ...). */
const char *sg_race_class_access(enum sg_race_class c, int upper);
/* The name of a kind's class: "early-host-read", ... */
const char *sg_race_kind_name(enum sg_race_kind kind);

#endif
