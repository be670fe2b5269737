/* Race reports. The fault handler fills a record with raw facts (no
 * allocation, no stdio); the reporter thread symbolizes and prints it. */
#ifndef SG_REPORT_REPORT_H
#define SG_REPORT_REPORT_H

#include <stdint.h>

#include "model/copies.h"
#include "model/sync.h"

#define SG_RACE_SYNCS 3

enum sg_race_kind {
    SG_RACE_EARLY_READ,      /* host read a D2H destination */
    SG_RACE_EARLY_WRITE_DST, /* host wrote a D2H destination */
    SG_RACE_EARLY_WRITE_SRC, /* host wrote an H2D source */
    SG_RACE_FREE_IN_FLIGHT,  /* pinned memory freed or unregistered */
};

struct sg_race {
    int kind;
    int in_flight; /* 1: the copy had not finished; 0: it had (latent) */
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
};

/* Hands a race to the reporter thread and waits (bounded) until it is
 * written. Returns 1 if a suppression matched it: the faulting thread then
 * neither halts nor aborts. Async-signal-safe. */
int sg_report_race(const struct sg_race *race);
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
void sg_report_after_fork_child(void);
const char *sg_race_kind_name(int kind);

#endif
