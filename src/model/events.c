/* SPDX-License-Identifier: Apache-2.0 */
/* Events: a record captures what the stream's work so far stands for; a
 * later record replaces it; a never-recorded event stands for nothing (and
 * is complete, so observing it teaches the host nothing). */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "model/model.h"

struct event_rec {
    CUevent e;
    UT_hash_handle hh;
    struct sg_vc captured;
};

static struct event_rec *events;

void sg_event_recorded(CUevent e, const struct sg_vc *captured)
{
    struct event_rec *r;
    HASH_FIND_PTR(events, &e, r);
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return;
        r->e = e;
        HASH_ADD_PTR(events, e, r);
    }
    sg_vc_copy(&r->captured, captured);
}

void sg_event_snapshot(CUevent e, struct sg_vc *out)
{
    struct event_rec *r;
    HASH_FIND_PTR(events, &e, r);
    out->n = 0;
    if (r)
        sg_vc_copy(out, &r->captured);
}

void sg_event_destroyed(CUevent e)
{
    struct event_rec *r;
    HASH_FIND_PTR(events, &e, r);
    if (!r)
        return;
    HASH_DEL(events, r);
    sg_vc_free(&r->captured);
    free(r);
}
