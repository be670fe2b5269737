/* The report of a race, sanitizer style: a banner, the access with its
 * stack, the copy with its enqueue stack, why the host's synchronization
 * did not cover it, and a SUMMARY line; the same as one JSON line with
 * json_path. Same race (same copy site, same access site) is reported once
 * and counted; a race a suppression matches is counted, not reported.
 * Reporter thread only, except the summary at exit. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/dl.h"
#include "base/log.h"
#include "base/options.h"
#include "base/self.h"
#include "base/stats.h"
#include "capture/python.h"
#include "report/explain.h"
#include "report/json.h"
#include "report/report.h"
#include "report/suppress.h"
#include "report/symbolize.h"

#define DEDUP_SLOTS 1024
#define EXPLANATION_MAX 8192
/* Room for inlined functions: a pc may stand for several frames. */
#define MAX_SHOWN (2 * SG_MAX_FRAMES + SG_MAX_PYFRAMES)


enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER }; /* options.def: color */

/* One race site seen in this process: reported, or suppressed by supp. */
struct seen {
    uint64_t key;
    unsigned long count; /* occurrences, the first included */
    int supp;            /* index of the suppression that matched, or -1 */
};

static struct seen seen[DEDUP_SLOTS];
/* Races reported, by kind name: early-host-read, early-host-write (a D2H
 * destination or an H2D source), free-in-flight. */
#define NKINDS 3
static const char *const kind_names[NKINDS] = { "early-host-read", "early-host-write",
                                                "free-in-flight" };
static unsigned long written, repeats, suppressed, by_kind[NKINDS];
static int summary_done;
/* The copy table's total at fork: a child counts only its own copies. */
static uint64_t guarded_base;

/* A frame as shown: native (pc, symbol) or Python (function, file, line
 * in sym). known: it could be symbolized. */
struct frame {
    int python, known;
    uintptr_t pc;
    struct sg_symbol sym;
};

struct stack {
    int n;
    struct frame f[MAX_SHOWN];
};

/* Both stacks of the race being written: too big for the stack of the
 * reporter thread, and only that thread uses them. */
static struct stack access_stack, copy_stack;

unsigned long sg_reports_written(void)
{
    return __atomic_load_n(&written, __ATOMIC_RELAXED);
}

static int kind_index(int kind)
{
    switch (kind) {
    case SG_RACE_EARLY_READ:
        return 0;
    case SG_RACE_FREE_IN_FLIGHT:
        return 2;
    default:
        return 1;
    }
}

const char *sg_race_kind_name(int kind)
{
    return kind_names[kind_index(kind)];
}

/* ---- symbolized stacks ---- */

/* One pc: a frame for each function inlined there, innermost first. */
static void add_native_frames(struct stack *st, uintptr_t pc, int is_exact, int limit)
{
    static struct sg_symbol syms[SG_MAX_INLINED];
    int n = sg_symbolize_inlined(pc, is_exact, syms, SG_MAX_INLINED);
    if (n == 0) {
        struct frame *f = &st->f[st->n++];
        f->python = 0, f->known = 0, f->pc = pc;
        memset(&f->sym, 0, sizeof f->sym);
        return;
    }
    for (int k = 0; k < n && st->n < limit; k++) {
        struct frame *f = &st->f[st->n++];
        f->python = 0, f->known = 1, f->pc = pc;
        f->sym = syms[k];
    }
}

/* Native frames inside syncguard are never shown (nor matched). The first
 * pc of an access stack is the faulting instruction, the others are return
 * addresses. Python frames keep their room. */
static void symbolize_stack(struct stack *st, const uintptr_t *pcs, int npcs, int first_exact,
                            const struct sg_pyframe *py, int npy)
{
    int native_limit = MAX_SHOWN - (npy < SG_MAX_PYFRAMES ? npy : SG_MAX_PYFRAMES);
    st->n = 0;
    for (int i = 0; i < npcs && st->n < native_limit; i++)
        if (!sg_self_contains(pcs[i]))
            add_native_frames(st, pcs[i], first_exact && i == 0, native_limit);
    for (int i = 0; i < npy && st->n < MAX_SHOWN; i++) {
        struct frame *f = &st->f[st->n++];
        struct sg_pysym ps;
        memset(&f->sym, 0, sizeof f->sym);
        f->python = 1, f->pc = 0;
        f->known = sg_python_symbolize(&py[i], &ps) == 0;
        if (f->known) {
            snprintf(f->sym.function, sizeof f->sym.function, "%s", ps.function);
            snprintf(f->sym.file, sizeof f->sym.file, "%s", ps.file);
            f->sym.line = ps.line;
        }
    }
}

static int native_count(const struct stack *st)
{
    int n = 0;
    while (n < st->n && !st->f[n].python)
        n++;
    return n;
}

static int to_names(const struct stack *st, struct sg_frame_names *out)
{
    for (int i = 0; i < st->n; i++) {
        const struct frame *f = &st->f[i];
        out[i].function = f->known ? f->sym.function : NULL;
        out[i].file = f->known ? f->sym.file : NULL;
        out[i].module = f->known && !f->python ? f->sym.module : NULL;
    }
    return st->n;
}

static int find_suppression(const struct sg_race *r)
{
    static struct sg_frame_names a[MAX_SHOWN], c[MAX_SHOWN];
    if (sg_suppressions_count() == 0)
        return -1;
    int na = to_names(&access_stack, a), nc = to_names(&copy_stack, c);
    return sg_suppress_find(r->kind, a, na, c, nc);
}

/* ---- deduplication ---- */

static uint64_t race_key(const struct sg_race *r)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)r->kind;
    const uintptr_t *pcs[2] = { r->pcs, r->copy.pcs };
    const int n[2] = { r->npcs, r->copy.npcs };
    for (int s = 0; s < 2; s++)
        for (int i = 0, used = 0; i < n[s] && used < 4; i++)
            if (!sg_self_contains(pcs[s][i]))
                h = (h ^ pcs[s][i]) * 1099511628211ull, used++;
    /* Python programs reach copies and reads through the same native code
     * from many lines: the innermost Python frames tell those sites apart. */
    const struct sg_pyframe *py[2] = { r->npy ? &r->py[0] : NULL,
                                       r->copy.npy ? &r->copy.py[0] : NULL };
    for (int s = 0; s < 2; s++)
        if (py[s])
            h = (h ^ py[s]->code ^ ((uint64_t)(unsigned)py[s]->lasti << 32)) * 1099511628211ull;
    return h ? h : 1;
}

/* The entry of this race site: found (count > 0) or new (count 0); NULL
 * when the table is full, and then the race is reported again rather than
 * lost. */
static struct seen *seen_slot(uint64_t key)
{
    for (unsigned i = 0; i < DEDUP_SLOTS; i++) {
        struct seen *s = &seen[(key + i) % DEDUP_SLOTS];
        if (s->key == key || s->key == 0) {
            s->key = key;
            return s;
        }
    }
    return NULL;
}

/* ---- the text report ---- */

struct text {
    char buf[65536];
    size_t n;
    int color;
};

static void tprintf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tprintf(struct text *t, const char *fmt, ...)
{
    if (t->n >= sizeof t->buf - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->buf + t->n, sizeof t->buf - t->n, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->n += (size_t)w < sizeof t->buf - t->n ? (size_t)w : sizeof t->buf - t->n - 1;
}

/* ANSI colors as the sanitizers use them, or nothing. */
enum paint { P_END, P_WARNING, P_ACCESS, P_COPY, P_FRAME, P_FUNCTION, P_BOLD };

static const char *paint(const struct text *t, enum paint p)
{
    static const char *const codes[] = { "\033[0m",  "\033[1m\033[31m", "\033[1m\033[34m",
                                         "\033[1m\033[35m", "\033[1m", "\033[32m",
                                         "\033[1m" };
    return t->color ? codes[p] : "";
}

/* auto: only when the log is a terminal, and not when NO_COLOR is set
 * (no-color.org) or the terminal is "dumb". A log file never is. */
static int use_color(void)
{
    if (sg_opt.color != COLOR_AUTO)
        return sg_opt.color == COLOR_ALWAYS;
    const char *lp = sg_opt.log_path ? sg_opt.log_path : "stderr";
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    if ((no && *no) || (term && strcmp(term, "dumb") == 0))
        return 0;
    if (strcmp(lp, "stderr") == 0)
        return isatty(2);
    if (strcmp(lp, "stdout") == 0)
        return isatty(1);
    return 0;
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
    case SG_RACE_FREE_IN_FLIGHT:
        return r->in_flight ? "pinned memory freed or unregistered while a copy on it is still "
                              "in flight"
                            : "pinned memory freed or unregistered while a copy on it was "
                              "never observed complete (latent: the copy had finished)";
    default:
        return r->in_flight ? "host write to the source of a host-to-device copy still in flight"
                            : "host write to the source of a host-to-device copy whose "
                              "completion the host never observed (latent)";
    }
}

/* What the access was: READ, WRITE or FREE (text), read, write, free (JSON). */
static const char *access_name(const struct sg_race *r, int upper)
{
    static const char *const names[2][3] = { { "read", "write", "free" },
                                             { "READ", "WRITE", "FREE" } };
    return names[upper][kind_index(r->kind)];
}

static void text_frame(struct text *t, int idx, const struct frame *f)
{
    const struct sg_symbol *s = &f->sym;
    tprintf(t, "    %s#%d%s ", paint(t, P_FRAME), idx, paint(t, P_END));
    if (f->python && !f->known) {
        tprintf(t, "<python frame>\n");
    } else if (f->python) {
        tprintf(t, "%s%.255s%s %.500s:%d (python)\n", paint(t, P_FUNCTION), s->function,
                paint(t, P_END), s->file, s->line);
    } else if (!f->known) {
        tprintf(t, "0x%lx\n", (unsigned long)f->pc);
    } else {
        tprintf(t, "0x%lx %s%.255s%s", (unsigned long)f->pc, paint(t, P_FUNCTION),
                s->function[0] ? s->function : "<unknown>", paint(t, P_END));
        if (s->file[0])
            tprintf(t, " %.500s:%d", s->file, s->line);
        tprintf(t, " (%.255s+0x%lx)\n", s->module, (unsigned long)s->module_offset);
    }
}

/* The native frames, then the Python stack (each numbered from 0). */
static void text_stack(struct text *t, const struct stack *st)
{
    int nat = native_count(st);
    for (int i = 0; i < nat; i++)
        text_frame(t, i, &st->f[i]);
    if (nat == 0)
        tprintf(t, "    <no stack>\n");
    if (st->n > nat)
        tprintf(t, "    Python stack:\n");
    for (int i = nat; i < st->n; i++)
        text_frame(t, i - nat, &st->f[i]);
}


/* The innermost Python frame that was named, if any. */
static const struct frame *python_frame(const struct stack *st)
{
    for (int i = 0; i < st->n; i++)
        if (st->f[i].python && st->f[i].known)
            return &st->f[i];
    return NULL;
}

/* The innermost native frame shown that is not code inlined from a system
 * header (glibc's fortified read() inlined into main names main's line);
 * the innermost one when all are. */
static const struct frame *native_frame(const struct stack *st)
{
    int nat = native_count(st);
    for (int i = 0; i < nat; i++)
        if (!st->f[i].known || !sg_symbol_in_system_header(&st->f[i].sym))
            return &st->f[i];
    return nat > 0 ? &st->f[0] : NULL;
}

/* "file:line in function" for SUMMARY: the innermost Python frame when
 * there is one (a PyTorch user's line, not libtorch's), else the innermost
 * native frame of the program's own code. */
static void frame_location(char *buf, size_t len, const struct stack *st, uintptr_t fallback)
{
    const struct frame *f = python_frame(st);
    if (!f)
        f = native_frame(st);
    if (!f || !f->known) {
        snprintf(buf, len, "0x%lx", (unsigned long)(f ? f->pc : fallback));
        return;
    }
    const struct sg_symbol *s = &f->sym;
    const char *fn = s->function[0] ? s->function : "<unknown>";
    if (s->file[0])
        snprintf(buf, len, "%.200s:%d in %.200s", sg_base_name(s->file), s->line, fn);
    else
        snprintf(buf, len, "(%.200s+0x%lx) in %.200s", s->module, (unsigned long)s->module_offset,
                 fn);
}

static void write_text(const struct sg_race *r, const char *where, const char *expl,
                       size_t elen)
{
    static struct text t;
    char stream[96];
    const struct sg_copy *c = &r->copy;
    t.n = 0, t.color = use_color();
    sg_describe_stream(stream, sizeof stream, &c->stream);
    tprintf(&t, "%s==%d==WARNING: syncguard: %s%s\n", paint(&t, P_WARNING), (int)getpid(),
            headline(r), paint(&t, P_END));
    tprintf(&t, "%s  %s at %p (byte %lu of a %zu-byte copy at %p) by thread %ld:%s\n",
            paint(&t, P_ACCESS), access_name(r, 1),
            (void *)r->addr, (unsigned long)(r->addr - c->base), c->size, (void *)c->base, r->tid,
            paint(&t, P_END));
    text_stack(&t, &access_stack);
    tprintf(&t, "%s  Copy enqueued on %s by %s in thread %ld:%s\n", paint(&t, P_COPY), stream,
            c->api, c->tid, paint(&t, P_END));
    text_stack(&t, &copy_stack);
    if (t.n < sizeof t.buf) {
        size_t room = sizeof t.buf - t.n - 1, n = elen < room ? elen : room;
        memcpy(t.buf + t.n, expl, n);
        t.n += n;
    }
    if (sg_opt.mode == SG_MODE_REPORT && r->kind == SG_RACE_FREE_IN_FLIGHT)
        tprintf(&t, "  syncguard waited for the copy before letting the memory go back to the "
                    "driver.\n");
    else if (sg_opt.mode == SG_MODE_REPORT)
        tprintf(&t, "  syncguard waited for the copy before letting the access through: the "
                    "program sees the copied data.\n");
    /* The SUMMARY line must survive a truncated report. */
    if (t.n > sizeof t.buf - 1024)
        t.n = sizeof t.buf - 1024;
    tprintf(&t, "%sSUMMARY: syncguard: %s %s%s\n", paint(&t, P_BOLD), sg_race_kind_name(r->kind),
            where, paint(&t, P_END));
    sg_log_write(t.buf, t.n);
}

/* ---- the JSON report ---- */

static void json_frame(struct sg_json *j, const struct frame *f)
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

static void json_stack(struct sg_json *j, const struct stack *st)
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

/* The rank as log_path's %r gives it; null when it is not a number. */
static void json_process(struct sg_json *j)
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

static void json_copy(struct sg_json *j, const struct sg_copy *c)
{
    sg_json_open(j, "copy", '{');
    sg_json_str(j, "api", c->api);
    sg_json_int(j, "size", (long long)c->size);
    sg_json_hex(j, "host_address", c->base);
    sg_json_str(j, "direction",
                c->guard == SG_GUARD_READ_ONLY ? "host-to-device" : "device-to-host");
    sg_json_open(j, "stream", '{');
    sg_json_hex(j, "handle", (uintptr_t)c->stream.handle);
    sg_json_str(j, "kind", stream_kind(c->stream.kind));
    sg_json_bool(j, "blocking", c->stream.blocking);
    sg_json_close(j, '}');
    sg_json_int(j, "tid", c->tid);
    json_stack(j, &copy_stack);
    sg_json_close(j, '}');
}

/* The text report's explanation lines, without their indentation. */
/* The explanation as one string, without the text report's indentation. */
static void json_explanation(struct sg_json *j, const char *text, size_t len)
{
    static char plain[EXPLANATION_MAX];
    size_t n = 0;
    int line_start = 1;
    for (size_t i = 0; i < len; i++) {
        if (line_start && text[i] == ' ')
            continue;
        plain[n++] = text[i];
        line_start = text[i] == '\n';
    }
    while (n > 0 && plain[n - 1] == '\n')
        n--;
    plain[n] = '\0';
    sg_json_str(j, "explanation", plain);
}

static void write_json(const struct sg_race *r, uint64_t key, const char *where,
                       const char *expl, size_t elen)
{
    struct sg_json j;
    char id[24], summary[800];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)key);
    snprintf(summary, sizeof summary, "%s %s", sg_race_kind_name(r->kind), where);
    sg_json_begin(&j);
    sg_json_str(&j, "type", "race");
    sg_json_str(&j, "id", id);
    sg_json_str(&j, "kind", sg_race_kind_name(r->kind));
    sg_json_bool(&j, "in_flight", r->in_flight);
    json_process(&j);
    sg_json_int(&j, "tid", r->tid);
    sg_json_hex(&j, "address", r->addr);
    sg_json_int(&j, "offset", (long long)(r->addr - r->copy.base));
    json_copy(&j, &r->copy);
    sg_json_open(&j, "access", '{');
    sg_json_str(&j, "type", access_name(r, 0));
    json_stack(&j, &access_stack);
    sg_json_close(&j, '}');
    json_explanation(&j, expl, elen);
    sg_json_str(&j, "summary", summary);
    sg_json_end(&j);
}

/* ---- the summary at exit ---- */

static uint64_t copies_guarded(void)
{
    return sg_copies_guarded_total() - guarded_base;
}

static void json_summary(void)
{
    struct sg_json j;
    char id[24];
    sg_json_begin(&j);
    sg_json_str(&j, "type", "summary");
    json_process(&j);
    sg_json_int(&j, "copies_guarded", (long long)copies_guarded());
    sg_json_open(&j, "stats", '{');
    for (int i = 0; i < SG_NSTATS; i++)
        sg_json_int(&j, sg_stat_name((enum sg_stat)i),
                    (long long)sg_stat_get((enum sg_stat)i));
    sg_json_close(&j, '}');
    sg_json_open(&j, "races", '{');
    for (int k = 0; k < NKINDS; k++)
        sg_json_int(&j, kind_names[k], (long long)by_kind[k]);
    sg_json_close(&j, '}');
    sg_json_int(&j, "reports", (long long)written);
    sg_json_int(&j, "repeats", (long long)repeats);
    sg_json_int(&j, "suppressed", (long long)suppressed);
    /* How often each reported race happened: its report line's "id". */
    sg_json_open(&j, "counts", '[');
    for (unsigned i = 0; i < DEDUP_SLOTS; i++) {
        if (!seen[i].count || seen[i].supp >= 0)
            continue;
        snprintf(id, sizeof id, "%016llx", (unsigned long long)seen[i].key);
        sg_json_open(&j, NULL, '{');
        sg_json_str(&j, "id", id);
        sg_json_int(&j, "count", (long long)seen[i].count);
        sg_json_close(&j, '}');
    }
    sg_json_close(&j, ']');
    sg_json_open(&j, "suppressions_used", '[');
    for (int i = 0; i < sg_suppressions_count(); i++) {
        const struct sg_suppression *s = sg_suppression_get(i);
        if (!s->hits)
            continue;
        sg_json_open(&j, NULL, '{');
        sg_json_str(&j, "kind", s->name);
        sg_json_str(&j, "pattern", s->pattern);
        sg_json_int(&j, "line", s->line);
        sg_json_int(&j, "hits", (long long)s->hits);
        sg_json_close(&j, '}');
    }
    sg_json_close(&j, ']');
    sg_json_end(&j);
}

/* Like TSan's "Suppressions used:": each that matched, with its hits. */
static void text_suppressions_used(int pid)
{
    const char *path = sg_suppressions_path();
    int header = 0;
    for (int i = 0; i < sg_suppressions_count(); i++) {
        const struct sg_suppression *s = sg_suppression_get(i);
        if (!s->hits)
            continue;
        if (!header++)
            sg_log_printf("==%d==syncguard: Suppressions used:\n  hits  suppression\n", pid);
        sg_log_printf("%6lu  %s:%s (%s:%d)\n", s->hits, s->name, s->pattern, path ? path : "?",
                      s->line);
    }
}

static void text_summary(void)
{
    int pid = (int)getpid();
    unsigned long long guarded = (unsigned long long)copies_guarded();
    sg_log_printf("==%d==syncguard: %lu race%s reported (%lu %s, %lu %s, %lu %s), %lu repeat%s "
                  "not shown, %lu suppressed; %llu cop%s guarded\n",
                  pid, written, written == 1 ? "" : "s", by_kind[0], kind_names[0], by_kind[1],
                  kind_names[1], by_kind[2], kind_names[2], repeats, repeats == 1 ? "" : "s",
                  suppressed, guarded, guarded == 1 ? "y" : "ies");
    if (sg_opt.verbosity >= 1) {
        char stats[512];
        sg_stats_format(stats, sizeof stats);
        sg_log_printf("==%d==syncguard: stats: %s\n", pid, stats);
    }
    text_suppressions_used(pid);
}

/* Once per process: at exit, or right after the report that halt_on_error
 * or mode=abort is about to end the process on. */
static void write_summary(void)
{
    if (__atomic_exchange_n(&summary_done, 1, __ATOMIC_ACQ_REL))
        return;
    int something = written > 0 || suppressed > 0;
    if (something || sg_opt.verbosity >= 1)
        text_summary();
    /* A process that never guarded a copy (a shell, a compiler that
     * inherited LD_PRELOAD) leaves no JSON file behind. */
    if (sg_json_enabled() && (something || copies_guarded() > 0 || sg_opt.verbosity >= 1))
        json_summary();
}

void sg_report_at_exit(void)
{
    write_summary();
}

/* ---- the entry point ---- */

/* Returns 1: what sg_report_write says of a suppressed race. */
static int count_suppressed(int supp)
{
    suppressed++;
    sg_suppress_hit(supp);
    return 1;
}

int sg_report_write(const struct sg_race *r)
{
    uint64_t key = race_key(r);
    struct seen *s = seen_slot(key);
    if (s && s->count++ > 0) {
        if (s->supp >= 0)
            return count_suppressed(s->supp);
        repeats++;
        return 0;
    }
    symbolize_stack(&access_stack, r->pcs, r->npcs, 1, r->py, r->npy);
    symbolize_stack(&copy_stack, r->copy.pcs, r->copy.npcs, 0, r->copy.py, r->copy.npy);
    int supp = find_suppression(r);
    if (s)
        s->supp = supp;
    if (supp >= 0)
        return count_suppressed(supp);
    char where[700];
    static char expl[EXPLANATION_MAX]; /* symbolizes the sync sites: once */
    size_t elen = sg_explain_race(expl, sizeof expl, r);
    frame_location(where, sizeof where, &access_stack, r->addr);
    write_text(r, where, expl, elen);
    if (sg_json_enabled())
        write_json(r, key, where, expl, elen);
    by_kind[kind_index(r->kind)]++;
    __atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
    /* The faulting thread ends the process as soon as this returns. */
    if (sg_opt.halt_on_error || sg_opt.mode == SG_MODE_ABORT)
        write_summary();
    return 0;
}

void sg_report_after_fork_child(void)
{
    /* The child's reports, counts and files are its own. */
    memset(seen, 0, sizeof seen);
    written = repeats = suppressed = 0;
    memset(by_kind, 0, sizeof by_kind);
    summary_done = 0;
    guarded_base = sg_copies_guarded_total();
    sg_suppressions_reset_hits();
    sg_json_after_fork_child();
}
