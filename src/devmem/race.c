/* SPDX-License-Identifier: Apache-2.0 */
/* A race between two device operations, as a report: the later
 * operation's enqueue stack is the access, the earlier one's the "copy"
 * (its operation, stream and stack), so that the reporter, JSON, SARIF,
 * suppressions and the pytest plugin treat it like any other kind. */
#include "config.h"

#include <string.h>

#include "base/context.h"
#include "base/lock.h"
#include "base/options.h"
#include "capture/python.h"
#include "capture/stack.h"
#include "devmem/race.h"
#include "report/report.h"

static enum sg_race_kind kind_of(enum sg_dev_clash c)
{
    switch (c) {
    case SG_DEV_RAW:
        return SG_RACE_DEVICE_RAW;
    case SG_DEV_WAR:
        return SG_RACE_DEVICE_WAR;
    case SG_DEV_WAW:
        break;
    }
    return SG_RACE_DEVICE_WAW;
}

/* The earlier operation's access that the clash is about: the one at the
 * byte both touch that writes (read after write, write after write) or
 * reads (write after read). */
static const struct sg_dev_access *access_met(const struct sg_dev_clash_seen *seen)
{
    const struct sg_dev_opinfo *o = &seen->op;
    int want_write = seen->kind != SG_DEV_WAR;
    for (int i = 0; i < o->n; i++)
        if (o->acc[i].write == want_write && o->acc[i].lo <= seen->at && seen->at < o->acc[i].hi)
            return &o->acc[i];
    return NULL;
}

/* The earlier operation as the report's copy. */
static void describe_earlier(struct sg_copy *c, const struct sg_dev_clash_seen *seen)
{
    memset(c, 0, sizeof *c);
    const struct sg_dev_opinfo *o = &seen->op;
    c->api = seen->have_op ? o->api : "an earlier operation";
    c->kernel = seen->have_op ? o->kernel : NULL;
    c->origin = seen->have_op ? o->origin : SG_ORIGIN_COPY;
    const struct sg_dev_access *a = seen->have_op ? access_met(seen) : NULL;
    c->base = a ? a->lo : seen->at;
    c->size = a ? a->hi - a->lo : 1;
    c->shape = sg_shape_linear(c->size);
    c->guard = seen->kind == SG_DEV_WAR ? SG_GUARD_READ_ONLY : SG_GUARD_NO_ACCESS;
    c->stream = o->stream;
    c->stream.idx = seen->old.stream;
    c->seq = seen->old.seq;
    c->tid = o->tid;
    c->npcs = seen->have_op ? o->npcs : 0;
    memcpy(c->pcs, o->pcs, (size_t)c->npcs * sizeof *c->pcs);
    c->npy = seen->have_op ? o->npy : 0;
    memcpy(c->py, o->py, (size_t)c->npy * sizeof *c->py);
}

void sg_devmem_report(const struct sg_dev_op *op, const struct sg_stream_info *si,
                      const struct sg_dev_clash_seen *seen, int fixed)
{
    if (sg_opt.mode == SG_MODE_SYNC) /* fixed, silently */
        return;
    static struct sg_race race; /* big: not on the stack; under report_lock */
    static sg_lock_t report_lock = SG_LOCK_INIT;
    sg_lock(&report_lock);
    memset(&race, 0, sizeof race);
    race.kind = kind_of(seen->kind);
    race.in_flight = 1;
    race.access_api = op->api;
    race.access_stream = *si;
    race.device_fixed = fixed;
    race.addr = seen->at;
    race.tid = sg_gettid();
    race.npcs = sg_stack_capture(race.pcs, SG_MAX_FRAMES);
    race.npy = sg_python_capture(race.py, SG_MAX_PYFRAMES);
    sg_context_get(race.context);
    describe_earlier(&race.copy, seen);
    sg_reporter_ensure_started();
    int reported = !sg_report_race(&race);
    sg_unlock(&report_lock);
    sg_report_act(reported);
}
