/* SPDX-License-Identifier: Apache-2.0 */
/* Suppressions (suppressions=FILE): "kind:pattern" lines, sanitizer style.
 * The file is read once at start-up so that a mistake in it stops the
 * process before main(), naming the file and line; matching happens in the
 * reporter thread, on symbolized frames. See syncguard-suppressions(5). */
#ifndef SG_REPORT_SUPPRESS_H
#define SG_REPORT_SUPPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/* What a suppression applies to. */
enum sg_supp_kind {
    SG_SUPP_RACE,        /* any race, a frame of either stack */
    SG_SUPP_CLASS,       /* races of one class (early-host-read, ...), either stack */
    SG_SUPP_ACCESS_SITE, /* any race, a frame of the access stack */
    SG_SUPP_COPY_SITE,   /* any race, a frame of the enqueue stack */
};

struct sg_suppression {
    enum sg_supp_kind kind;
    int race_class;   /* SG_SUPP_CLASS: enum sg_race_class */
    const char *name; /* the kind as written */
    const char *pattern;
    int line;         /* in the file, for messages */
    unsigned long hits;
};

/* The names a frame is matched by; NULL or "" when unknown. */
struct sg_frame_names {
    const char *function;
    const char *file;   /* full path as symbolized */
    const char *module; /* base name of the object */
};

/* Reads FILE (normal context, at start-up). NULL or "" loads nothing.
 * Returns 0, or -1 with a message naming the file (and line) in err. */
int sg_suppressions_load(const char *path, char *err, size_t errlen);

/* The first suppression that matches a race of this kind with these
 * stacks, or -1. Does not count a hit. */
int sg_suppress_find(enum sg_race_kind race_kind, const struct sg_frame_names *access, int naccess,
                     const struct sg_frame_names *copy, int ncopy);
void sg_suppress_hit(int idx);

int sg_suppressions_count(void);
const struct sg_suppression *sg_suppression_get(int idx);
const char *sg_suppressions_path(void);
/* Hit counts start again from zero (a forked child). */
void sg_suppressions_reset_hits(void);



#endif
