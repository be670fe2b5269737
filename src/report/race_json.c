/* SPDX-License-Identifier: Apache-2.0 */
/* The JSON report of a race (json_path): one line, rendered from the same
 * view as the text report; with the text report added, the C API's entry
 * for the race. Reporter thread only. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "report/api.h"
#include "report/explain.h"
#include "report/json.h"
#include "report/view.h"

void sg_json_process(struct sg_json *j)
{
    char rank[64];
    sg_json_int(j, "pid", (long long)getpid());
    if (sg_log_expand_path("%r", rank, sizeof rank) == 0) {
        char *end, *dot = strrchr(rank, '.'); /* the ".PID" it appends */
        if (dot)
            *dot = '\0';
        long v = strtol(rank, &end, 10);
        if (end != rank && *end == '\0') {
            sg_json_int(j, "rank", v);
            return;
        }
    }
    sg_json_null(j, "rank");
}

static void json_frame(struct sg_json *j, const struct sg_frame_view *f)
{
    const struct sg_symbol *s = &f->sym;
    sg_json_open(j, NULL, '{');
    if (f->python)
        sg_json_bool(j, "python", 1);
    else
        sg_json_hex(j, "pc", f->pc);
    sg_json_str(j, "function", f->known && s->function[0] ? s->function : NULL);
    sg_json_str(j, "file", f->known && s->file[0] ? s->file : NULL);
    if (f->known && s->line > 0)
        sg_json_int(j, "line", s->line);
    else
        sg_json_null(j, "line");
    if (!f->python) {
        sg_json_str(j, "module", f->known ? s->module : NULL);
        if (f->known)
            sg_json_hex(j, "offset", s->module_offset);
        else
            sg_json_null(j, "offset");
    }
    sg_json_close(j, '}');
}

static void json_stack(struct sg_json *j, const struct sg_stack_view *st)
{
    sg_json_open(j, "stack", '[');
    for (int i = 0; i < st->n; i++)
        json_frame(j, &st->f[i]);
    sg_json_close(j, ']');
}

static const char *stream_kind(int kind)
{
    return kind == SG_STREAM_LEGACY ? "legacy" : kind == SG_STREAM_PER_THREAD ? "per-thread"
                                                                             : "user";
}

static void json_copy(struct sg_json *j, const struct sg_copy *c, const struct sg_stack_view *st)
{
    sg_json_open(j, "copy", '{');
    sg_json_str(j, "api", c->api);
    sg_json_int(j, "size", (long long)c->size);
    sg_json_hex(j, "host_address", c->base);
    sg_json_str(j, "direction",
                c->kernel ? "kernel" : c->guard == SG_GUARD_READ_ONLY ? "host-to-device"
                                                                      : "device-to-host");
    sg_json_str(j, "kernel", c->kernel);
    if (c->origin == SG_ORIGIN_KERNEL) /* what the kernel does with it: learnt, or assumed */
        sg_json_str(j, "kernel_access", !c->learnt                     ? "assumed-write"
                                        : c->guard == SG_GUARD_READ_ONLY ? "learnt-read"
                                                                         : "learnt-write");
    sg_json_str(j, "operation", c->origin == SG_ORIGIN_KERNEL   ? "kernel"
                                : c->origin == SG_ORIGIN_MEMSET ? "memset"
                                : c->origin == SG_ORIGIN_MEMOP  ? "write-value"
                                                                : "copy");
    sg_json_open(j, "stream", '{');
    sg_json_hex(j, "handle", (uintptr_t)c->stream.handle);
    sg_json_str(j, "kind", stream_kind(c->stream.kind));
    sg_json_bool(j, "blocking", c->stream.blocking);
    sg_json_close(j, '}');
    sg_json_int(j, "tid", c->tid);
    json_stack(j, st);
    sg_json_close(j, '}');
}

/* The explanation as one string: the intro and the reasons, a line each. */
static void json_explanation(struct sg_json *j, const struct sg_race_view *v)
{
    static char text[SG_RACE_SYNCS * SG_REASON_MAX + 256];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", sg_explain_intro(v));
    for (int i = 0; i < v->nreasons && n < sizeof text; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "\n%s", v->reasons[i]);
    sg_json_str(j, "explanation", text);
}

int sg_render_json(const struct sg_race_view *v, const char *text)
{
    const struct sg_race *r = v->race;
    struct sg_json j;
    char id[24], summary[800];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)v->key);
    snprintf(summary, sizeof summary, "%s %s", sg_race_kind_name(r->kind), v->where);
    sg_json_begin(&j);
    sg_json_str(&j, "type", "race");
    sg_json_str(&j, "id", id);
    sg_json_str(&j, "kind", sg_race_kind_name(r->kind));
    sg_json_bool(&j, "in_flight", r->in_flight);
    sg_json_process(&j);
    sg_json_int(&j, "tid", r->tid);
    sg_json_hex(&j, "address", r->addr);
    sg_json_int(&j, "offset", (long long)(r->addr - r->copy.base));
    json_copy(&j, &r->copy, &v->copy);
    sg_json_open(&j, "access", '{');
    sg_json_str(&j, "type", sg_race_class_access(sg_race_class_of(r->kind), 0));
    if (r->access_api)
        sg_json_str(&j, "api", r->access_api); /* copy-overlap: the second copy's */
    if (r->kind == SG_RACE_DEVICE_RAW || r->kind == SG_RACE_DEVICE_WAR ||
        r->kind == SG_RACE_DEVICE_WAW) { /* the later device operation's stream */
        sg_json_open(&j, "stream", '{');
        sg_json_hex(&j, "handle", (uintptr_t)r->access_stream.handle);
        sg_json_str(&j, "kind", stream_kind(r->access_stream.kind));
        sg_json_bool(&j, "blocking", r->access_stream.blocking);
        sg_json_close(&j, '}');
        sg_json_bool(&j, "ordered_by_syncguard", r->device_fixed);
    }
    json_stack(&j, &v->access);
    sg_json_close(&j, '}');
    json_explanation(&j, v);
    sg_json_str(&j, "summary", summary);
    sg_json_str(&j, "context", r->context[0] ? r->context : NULL);
    sg_json_write_open(&j);
    /* The C API's entry: the same object, with the text report. */
    sg_json_str(&j, "text", text);
    int h = sg_api_race_first(j.failed ? NULL : j.buf, j.len);
    sg_json_free(&j);
    return h;
}

