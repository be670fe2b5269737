/* SPDX-License-Identifier: Apache-2.0 */
/* The sampled mode (sample=N): which copies get a page guard. Every copy
 * still takes its place in the model; sampling only decides whether its
 * host pages are guarded. Decisions are per enqueue site (the native stack
 * and the innermost Python frame) and deterministic: a site's first
 * sample_first copies are guarded, then the last copy of each following
 * run of N, so a race that happens on every copy of a site from some copy
 * on is caught within N of that site's copies (syncguard(7)). */
#ifndef SG_MODEL_SAMPLE_H
#define SG_MODEL_SAMPLE_H

#include <stdint.h>

#include "capture/python.h"
#include "model/copies.h"

/* Sites the table holds; copies at sites beyond it are always guarded. */
#define SG_SAMPLE_SITES 4096

/* One site as the exit summary shows it. */
struct sg_sample_site {
    uint64_t key; /* the hash of the site; its id in the JSON summary */
    unsigned long guarded, sampled_out;
    int npcs;
    uintptr_t pcs[SG_MAX_FRAMES]; /* the stack of its first copy */
    /* Its innermost Python frame, named at that copy while the frame ran:
     * by the exit summary the code object may be gone (freed when its
     * module or function went, or at the interpreter's finalization). */
    int has_py;
    struct sg_pysym py;
};

/* Whether to guard a call enqueued at this site (1 when sample=0): asked
 * once per intercepted call (life/site.c), whose every host range follows
 * the answer, so a site counts copies and launches, not ranges.
 * With sg_model_lock held; normal context (maps the table on first use). */
int sg_sample_should_guard(const uintptr_t *pcs, int npcs, const struct sg_pyframe *py, int npy)
    SG_REQUIRES(sg_model_lock);

/* ---- for the exit summary; each takes sg_model_lock ---- */
/* Copies the i-th used site (0, 1, ...) into *out; 0 past the last. */
int sg_sample_site_get(int i, struct sg_sample_site *out) SG_EXCLUDES(sg_model_lock);
/* Copies guarded because their site found the table full. */
unsigned long sg_sample_unplaced(void) SG_EXCLUDES(sg_model_lock);

/* In a forked child: every site starts again from its first copy. */
void sg_sample_after_fork_child(void);

#endif
