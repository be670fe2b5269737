/* SPDX-License-Identifier: Apache-2.0 */
/* Why the host's synchronization did not cover a copy: the lines of a
 * report after the copy's stack. It names what the host did synchronize
 * since the copy was enqueued (with where), and for each the reason it does
 * not reach the copy. Reporter thread only. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/self.h"
#include "report/explain.h"
#include "report/symbolize.h"

/* "file:line" or "function (module+0x..)" of the first frame outside
 * syncguard and the CUDA libraries' own frames is what the user wrote. */
static void site_location(char *buf, size_t len, const struct sg_sync_site *s)
{
    static struct sg_symbol syms[SG_MAX_INLINED];
    for (int i = 0; i < s->npcs; i++) {
        if (sg_self_contains(s->pcs[i]))
            continue;
        int n = sg_symbolize_inlined(s->pcs[i], 0, syms, SG_MAX_INLINED), k = 0;
        if (n == 0)
            continue;
        const struct sg_symbol *sym = &syms[0];
        if (strncmp(sym->module, "libcuda", 7) == 0) /* libcuda and libcudart */
            continue;
        while (k < n - 1 && sg_symbol_in_system_header(&syms[k]))
            k++;
        sym = &syms[k];
        if (sym->file[0])
            snprintf(buf, len, "%.200s:%d", sg_base_name(sym->file), sym->line);
        else
            snprintf(buf, len, "%.200s (%.200s+0x%lx)", sym->function[0] ? sym->function : "?",
                     sym->module, (unsigned long)sym->module_offset);
        return;
    }
    snprintf(buf, len, "an unknown place");
}

void sg_describe_stream(char *buf, size_t len, const struct sg_stream_info *s)
{
    switch (s->kind) {
    case SG_STREAM_LEGACY:
        snprintf(buf, len, "the legacy default stream");
        break;
    case SG_STREAM_PER_THREAD:
        snprintf(buf, len, "the per-thread default stream");
        break;
    default:
        snprintf(buf, len, "stream %p (%s)", (void *)s->handle,
                 s->blocking ? "blocking" : "non-blocking");
    }
}

/* Why one observation does not cover the copy (or the kernel launch). */
static void reason(char *buf, size_t len, const struct sg_sync_site *s, const struct sg_copy *c)
{
    char theirs[96], ours[96];
    const char *it = c->origin == SG_ORIGIN_KERNEL   ? "the launch"
                     : c->origin == SG_ORIGIN_MEMSET ? "the memset"
                     : c->origin == SG_ORIGIN_MEMOP  ? "the memory write"
                                                     : "the copy";
    sg_describe_stream(ours, sizeof ours, &c->stream);
    switch (s->target) {
    case SG_SYNC_EVENT:
        snprintf(buf, len,
                 "event %p was not recorded after %s on its stream, nor on a stream "
                 "that waited for it",
                 (void *)s->handle, it);
        return;
    case SG_SYNC_CONTEXT:
        snprintf(buf, len, "%s belongs to another context (%p)", it, (void *)c->stream.ctx);
        return;
    case SG_SYNC_HOST_FN:
        if (s->stream.idx == 0) { /* a host node of a graph: no stream of its own */
            snprintf(buf, len, "%s was not part of that graph's launch before it", it);
            return;
        }
        /* A host function on a stream orders like the stream. */
        __attribute__((fallthrough));
    default:
        sg_describe_stream(theirs, sizeof theirs, &s->stream);
        if (s->stream.idx == c->stream.idx)
            snprintf(buf, len, "that covered only work enqueued before %s", it);
        else
            snprintf(buf, len, "%s was on %s, and no event wait orders it before %s", it, ours,
                     theirs);
    }
}

static const char *what(const struct sg_sync_site *s, char *buf, size_t len)
{
    switch (s->target) {
    case SG_SYNC_EVENT:
        snprintf(buf, len, "event %p", (void *)s->handle);
        break;
    case SG_SYNC_CONTEXT:
        snprintf(buf, len, "context %p", (void *)s->handle);
        break;
    case SG_SYNC_HOST_FN:
        if (s->stream.idx == 0) {
            snprintf(buf, len, "a host node of graph %p", (void *)s->handle);
            break;
        }
        sg_describe_stream(buf, len, &s->stream);
        break;
    default:
        sg_describe_stream(buf, len, &s->stream);
    }
    return buf;
}

const char *sg_explain_intro(const struct sg_race_view *v)
{
    if (v->race->copy.origin == SG_ORIGIN_MEMOP)
        return v->nreasons == 0 ? "The host has not synchronized with anything since the memory "
                                  "write was enqueued."
                                : "Since the memory write was enqueued the host synchronized with:";
    if (v->race->copy.origin == SG_ORIGIN_MEMSET)
        return v->nreasons == 0 ? "The host has not synchronized with anything since the memset "
                                  "was enqueued."
                                : "Since the memset was enqueued the host synchronized with:";
    if (v->race->copy.kernel)
        return v->nreasons == 0 ? "The host has not synchronized with anything since the kernel "
                                  "was launched."
                                : "Since the kernel was launched the host synchronized with:";
    return v->nreasons == 0 ? "The host has not synchronized with anything since the copy was "
                              "enqueued."
                            : "Since the copy was enqueued the host synchronized with:";
}

void sg_explain_race(struct sg_race_view *v)
{
    const struct sg_race *r = v->race;
    v->nreasons = 0;
    for (int i = 0; i < r->nsyncs && i < SG_RACE_SYNCS; i++) {
        const struct sg_sync_site *s = &r->syncs[i];
        char target[128], where[420], why[300];
        what(s, target, sizeof target);
        site_location(where, sizeof where, s);
        reason(why, sizeof why, s, &r->copy);
        snprintf(v->reasons[v->nreasons++], SG_REASON_MAX, "%s (%s at %s), but %s.", target,
                 s->api, where, why);
    }
}
