/* The text report of a race, sanitizer style: a banner, the access with its
 * stack, the copy with its enqueue stack, why the host's synchronization
 * did not cover it, and a SUMMARY line. Same race (same copy site, same
 * access site) is reported once and counted. Reporter thread only. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syncguard/intercept.h"
#include "syncguard/log.h"
#include "syncguard/options.h"
#include "syncguard/python.h"
#include "syncguard/report.h"
#include "syncguard/symbolize.h"

#define DEDUP_SLOTS 1024

struct seen {
    uint64_t key;
    unsigned long count;
};

static struct seen seen[DEDUP_SLOTS];
static unsigned long written, duplicates;

unsigned long sg_reports_written(void)
{
    return __atomic_load_n(&written, __ATOMIC_RELAXED);
}

const char *sg_race_kind_name(int kind)
{
    switch (kind) {
    case SG_RACE_EARLY_READ:
        return "early-host-read";
    default:
        return "early-host-write";
    }
}

static const char *headline(const struct sg_race *r)
{
    switch (r->kind) {
    case SG_RACE_EARLY_READ:
        return r->in_flight ? "host read of a device-to-host copy still in flight"
                            : "host read of a device-to-host copy whose completion the host "
                              "never observed (latent: the copy had finished)";
    case SG_RACE_EARLY_WRITE_DST:
        return r->in_flight ? "host write to the destination of a device-to-host copy still in "
                              "flight"
                            : "host write to the destination of a device-to-host copy whose "
                              "completion the host never observed (latent)";
    default:
        return r->in_flight ? "host write to the source of a host-to-device copy still in flight"
                            : "host write to the source of a host-to-device copy whose "
                              "completion the host never observed (latent)";
    }
}

/* Frames worth showing: none inside syncguard. */
static int visible(const uintptr_t *pcs, int n, uintptr_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!sg_self_contains(pcs[i]))
            out[k++] = pcs[i];
    return k;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int format_frame(char *buf, size_t len, int idx, uintptr_t pc, int exact)
{
    struct sg_symbol s;
    if (sg_symbolize(pc, exact, &s) < 0)
        return snprintf(buf, len, "    #%d 0x%lx\n", idx, (unsigned long)pc);
    char where[620] = "";
    if (s.file[0])
        snprintf(where, sizeof where, " %s:%d", s.file, s.line);
    return snprintf(buf, len, "    #%d 0x%lx %.255s%.600s (%.255s+0x%lx)\n", idx, (unsigned long)pc,
                    s.function[0] ? s.function : "<unknown>", where, s.module,
                    (unsigned long)s.module_offset);
}

/* Appends a stack; the first frame of an access stack is the faulting
 * instruction itself, every other pc is a return address. */
static size_t format_stack(char *buf, size_t len, const uintptr_t *pcs, int n, int first_exact)
{
    uintptr_t vis[SG_MAX_FRAMES];
    int k = visible(pcs, n, vis);
    size_t used = 0;
    for (int i = 0; i < k && used < len; i++) {
        int w = format_frame(buf + used, len - used, i, vis[i], first_exact && i == 0);
        if (w > 0)
            used += (size_t)w;
    }
    if (k == 0 && len > 30)
        used += (size_t)snprintf(buf, len, "    <no stack>\n");
    return used < len ? used : len - 1;
}

/* The Python stack, innermost first, after the native one. */
static size_t format_python(char *buf, size_t len, const struct sg_pyframe *py, int n)
{
    size_t used = 0;
    if (n > 0 && len > 40)
        used += (size_t)snprintf(buf, len, "    Python stack:\n");
    for (int i = 0; i < n && used < len; i++) {
        struct sg_pysym s;
        int w = sg_python_symbolize(&py[i], &s) == 0
                    ? snprintf(buf + used, len - used, "    #%d %.255s %.500s:%d (python)\n", i,
                               s.function, s.file, s.line)
                    : snprintf(buf + used, len - used, "    #%d <python frame>\n", i);
        if (w > 0)
            used += (size_t)w;
    }
    return used < len ? used : len - 1;
}

static void describe_stream(char *buf, size_t len, const struct sg_stream_info *s)
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

static void summary_location(char *buf, size_t len, const struct sg_race *r)
{
    uintptr_t vis[SG_MAX_FRAMES];
    int k = visible(r->pcs, r->npcs, vis);
    struct sg_symbol s;
    if (k == 0 || sg_symbolize(vis[0], 1, &s) < 0) {
        snprintf(buf, len, "0x%lx", (unsigned long)(k ? vis[0] : r->addr));
        return;
    }
    const char *fn = s.function[0] ? s.function : "<unknown>";
    if (s.file[0])
        snprintf(buf, len, "%.200s:%d in %.200s", base_name(s.file), s.line, fn);
    else
        snprintf(buf, len, "(%.200s+0x%lx) in %.200s", s.module, (unsigned long)s.module_offset, fn);
}

static uint64_t race_key(const struct sg_race *r)
{
    uintptr_t a[SG_MAX_FRAMES], c[SG_MAX_FRAMES];
    int ka = visible(r->pcs, r->npcs, a), kc = visible(r->copy.pcs, r->copy.npcs, c);
    uint64_t h = 1469598103934665603ull ^ (uint64_t)r->kind;
    for (int i = 0; i < ka && i < 4; i++)
        h = (h ^ a[i]) * 1099511628211ull;
    for (int i = 0; i < kc && i < 4; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h ? h : 1;
}

/* 1 if this race was reported before (and count it). */
static int already_reported(const struct sg_race *r)
{
    uint64_t key = race_key(r);
    for (unsigned i = 0; i < DEDUP_SLOTS; i++) {
        struct seen *s = &seen[(key + i) % DEDUP_SLOTS];
        if (s->key == key)
            return s->count++, 1;
        if (s->key == 0) {
            s->key = key, s->count = 1;
            return 0;
        }
    }
    return 0; /* table full: report it again rather than lose it */
}

void sg_report_write(const struct sg_race *r)
{
    if (already_reported(r)) {
        duplicates++;
        return;
    }
    static char buf[32768];
    char stream[96], where[700];
    const struct sg_copy *c = &r->copy;
    describe_stream(stream, sizeof stream, &c->stream);
    summary_location(where, sizeof where, r);
    size_t n = 0, cap = sizeof buf;
    n += (size_t)snprintf(buf + n, cap - n, "==%d==WARNING: syncguard: %s\n", (int)getpid(),
                          headline(r));
    n += (size_t)snprintf(buf + n, cap - n,
                          "  %s at %p (byte %lu of a %zu-byte copy at %p) by thread %ld:\n",
                          r->kind == SG_RACE_EARLY_READ ? "READ" : "WRITE", (void *)r->addr,
                          (unsigned long)(r->addr - c->base), c->size, (void *)c->base, r->tid);
    n += format_stack(buf + n, cap - n, r->pcs, r->npcs, 1);
    n += format_python(buf + n, cap - n, r->py, r->npy);
    n += (size_t)snprintf(buf + n, cap - n, "  Copy enqueued on %s by %s in thread %ld:\n",
                          stream, c->api, c->tid);
    n += format_stack(buf + n, cap - n, c->pcs, c->npcs, 0);
    n += format_python(buf + n, cap - n, c->py, c->npy);
    n += (size_t)snprintf(buf + n, cap - n,
                          "  The host has not synchronized with that stream (or an event "
                          "recorded after the copy) since the copy was enqueued.\n");
    if (sg_opt.mode == SG_MODE_REPORT)
        n += (size_t)snprintf(buf + n, cap - n,
                              "  syncguard waited for the copy before letting the access "
                              "through: the program sees the copied data.\n");
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "SUMMARY: syncguard: %s %s\n",
                              sg_race_kind_name(r->kind), where);
    sg_log_write(buf, n < cap ? n : cap - 1);
    __atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
}

void sg_report_at_exit(void)
{
    unsigned long w = sg_reports_written();
    if (w == 0 && sg_opt.verbosity < 1)
        return;
    sg_log_printf("==%d==syncguard: %lu race%s reported (%lu repeat%s not shown), %llu copies "
                  "guarded\n",
                  (int)getpid(), w, w == 1 ? "" : "s", duplicates, duplicates == 1 ? "" : "s",
                  (unsigned long long)sg_copies_guarded_total());
}
