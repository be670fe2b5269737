/* SPDX-License-Identifier: Apache-2.0 */
/* The text report of a race, sanitizer style: a banner, the access with
 * its stack, the copy with its enqueue stack, why the host's
 * synchronization did not cover it, and a SUMMARY line. Reporter thread
 * only. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/options.h"
#include "model/model.h"
#include "report/explain.h"
#include "report/view.h"

enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER }; /* options.def: color */

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

/* A memset of pinned memory is reported with a copy's kinds (the device
 * writes host memory either way); its headlines say what it was. */
static const char *memset_headline(const struct sg_race *r)
{
    if (r->kind == SG_RACE_EARLY_READ)
        return r->in_flight ? "host read of pinned memory that an asynchronous memset still in "
                              "flight writes"
                            : "host read of pinned memory written by an asynchronous memset "
                              "whose completion the host never observed (latent: it had "
                              "finished)";
    return r->in_flight ? "host write to pinned memory that an asynchronous memset still in "
                          "flight writes"
                        : "host write to pinned memory written by an asynchronous memset whose "
                          "completion the host never observed (latent)";
}

/* Whether the race's address lies in managed memory (managed_races): its
 * kernel headlines say so. The range is still known: the faulting thread
 * waits for its report. */
static int in_managed(const struct sg_race *r)
{
    unsigned flags = 0;
    return sg_pinned_lookup(r->addr, 1, &flags) && (flags & SG_PINNED_MANAGED);
}

static const char *managed_headline(const struct sg_race *r)
{
    if (r->kind == SG_RACE_KERNEL_READ)
        return r->in_flight ? "host read of managed memory that a kernel still running may write"
                            : "host read of managed memory that a kernel may have written, "
                              "whose completion the host never observed (latent: it had "
                              "finished)";
    return r->in_flight ? "host write to managed memory that a kernel still running may use"
                        : "host write to managed memory that a kernel may have used, whose "
                          "completion the host never observed (latent)";
}

static const char *headline(const struct sg_race *r)
{
    if ((r->kind == SG_RACE_KERNEL_READ || r->kind == SG_RACE_KERNEL_WRITE) && in_managed(r))
        return managed_headline(r);
    if (r->copy.origin == SG_ORIGIN_MEMOP && r->kind == SG_RACE_EARLY_WRITE_DST)
        return r->in_flight ? "host write to a pinned word that a stream memory write still in "
                              "flight targets"
                            : "host write to a pinned word that a stream memory write targets, "
                              "whose completion the host never observed (latent)";
    if (r->copy.origin == SG_ORIGIN_MEMSET &&
        (r->kind == SG_RACE_EARLY_READ || r->kind == SG_RACE_EARLY_WRITE_DST))
        return memset_headline(r);
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
    case SG_RACE_EARLY_WRITE_SRC:
        return r->in_flight ? "host write to the source of a host-to-device copy still in flight"
                            : "host write to the source of a host-to-device copy whose "
                              "completion the host never observed (latent)";
    case SG_RACE_KERNEL_READ:
        return r->in_flight ? "host read of pinned memory that a kernel still running may write"
                            : "host read of pinned memory that a kernel may have written, "
                              "whose completion the host never observed (latent: it had "
                              "finished)";
    case SG_RACE_COPY_OVERLAP:
        return r->in_flight ? "two copies of one pinned buffer, not ordered: one reads what the "
                              "other, still in flight, writes"
                            : "two copies of one pinned buffer, not ordered: one reads what the "
                              "other writes (latent: the first had finished)";
    case SG_RACE_DEVICE_RAW:
        return "device memory read on one stream while another stream may still write it";
    case SG_RACE_DEVICE_WAR:
        return "device memory written on one stream while another stream may still read it";
    case SG_RACE_DEVICE_WAW:
        return "device memory written on one stream while another stream may still write it";
    case SG_RACE_KERNEL_WRITE:
        return r->in_flight ? "host write to pinned memory that a kernel still running may use"
                            : "host write to pinned memory that a kernel may have used, whose "
                              "completion the host never observed (latent)";
    }
    return "race";
}

static void text_frame(struct text *t, int idx, const struct sg_frame_view *f)
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

/* Frames of the machinery between a Python line and the call it makes:
 * the interpreter (libpython, or a python executable that links it in),
 * ctypes and libffi, the CUDA runtime and driver, syncguard itself. */
static int is_machinery(const struct sg_frame_view *f)
{
    static const char *const prefixes[] = { "libpython", "python", "_ctypes", "libffi",
                                            "libcuda.so", "libcudart", "libsyncguard" };
    if (f->python || !f->known)
        return 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(f->sym.module, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* Every native frame, then the Python stack (each numbered from 0):
 * python_first=0, and every stack without Python frames. */
static void text_stack_native_first(struct text *t, const struct sg_stack_view *st, int nat)
{
    for (int i = 0; i < nat; i++)
        text_frame(t, i, &st->f[i]);
    if (nat == 0)
        tprintf(t, "    <no stack>\n");
    if (st->n > nat)
        tprintf(t, "    Python stack:\n");
    for (int i = nat; i < st->n; i++)
        text_frame(t, i - nat, &st->f[i]);
}

/* The Python stack, the lines a Python user acts on, then the native one
 * with each run of machinery frames folded into one line; the frames keep
 * their numbers, so #0 is still the innermost and the fold says how many
 * it stands for. */
static void text_stack_python_first(struct text *t, const struct sg_stack_view *st, int nat)
{
    tprintf(t, "    Python stack:\n");
    for (int i = nat; i < st->n; i++)
        text_frame(t, i - nat, &st->f[i]);
    if (nat > 0)
        tprintf(t, "    Native stack:\n");
    for (int i = 0; i < nat;) {
        int run = 0;
        while (i + run < nat && is_machinery(&st->f[i + run]))
            run++;
        if (run >= 2) {
            tprintf(t, "    %s#%d%s ... %d interpreter frames ...\n", paint(t, P_FRAME), i,
                    paint(t, P_END), run);
            i += run;
        } else {
            text_frame(t, i, &st->f[i]);
            i++;
        }
    }
}

static void text_stack(struct text *t, const struct sg_stack_view *st)
{
    int nat = sg_stack_native_count(st);
    if (sg_opt.python_first && st->n > nat)
        text_stack_python_first(t, st, nat);
    else
        text_stack_native_first(t, st, nat);
}

static int is_device_race(const struct sg_race *r)
{
    return r->kind == SG_RACE_DEVICE_RAW || r->kind == SG_RACE_DEVICE_WAR ||
           r->kind == SG_RACE_DEVICE_WAW;
}

/* Why the two are not ordered, and what syncguard did about it. */
static void device_race_tail(struct text *t, const struct sg_race *r)
{
    char later[96], earlier[96];
    sg_describe_stream(later, sizeof later, &r->access_stream);
    sg_describe_stream(earlier, sizeof earlier, &r->copy.stream);
    tprintf(t, "  Nothing orders the earlier operation before the later one: %s did not wait "
               "for an event recorded on %s after it, and the host did not observe it complete "
               "before enqueueing the later one.\n",
            later, earlier);
    if (r->device_fixed)
        tprintf(t, "  syncguard made %s wait for the work of %s before the later operation: the "
                   "program computes with the data it meant to.\n",
                later, earlier);
    else
        tprintf(t, "  syncguard did not order them (device_fix=0, or no handle names the earlier "
                   "stream here): the program goes on as it would without it.\n");
}

static void render(struct text *t, const struct sg_race_view *v)
{
    char stream[96], prefix[64];
    const struct sg_race *r = v->race;
    const struct sg_copy *c = &r->copy;
    t->n = 0;
    sg_describe_stream(stream, sizeof stream, &c->stream);
    sg_log_prefix(prefix, sizeof prefix, SG_LOG_WARNING);
    tprintf(t, "%s%s%s%s\n", paint(t, P_WARNING), prefix, headline(r), paint(t, P_END));
    if (r->context[0])
        tprintf(t, "  Context: %.255s\n", r->context);
    if (is_device_race(r)) {
        char later[96];
        sg_describe_stream(later, sizeof later, &r->access_stream);
        tprintf(t, "%s  %s of device memory at %p by %s on %s, enqueued in thread %ld:%s\n",
                paint(t, P_ACCESS), sg_race_class_access(sg_race_class_of(r->kind), 1),
                (void *)r->addr, r->access_api, later, r->tid, paint(t, P_END));
    } else if (r->kind == SG_RACE_COPY_OVERLAP)
        tprintf(t, "%s  COPY by %s of %p (byte %lu of a %zu-byte copy at %p) enqueued in thread "
                   "%ld:%s\n",
                paint(t, P_ACCESS), r->access_api ? r->access_api : "a copy", (void *)r->addr,
                (unsigned long)(r->addr - c->base), c->size, (void *)c->base, r->tid,
                paint(t, P_END));
    else
        tprintf(t, "%s  %s at %p (byte %lu of a %zu-byte %s at %p) by thread %ld%s%s:%s\n",
                paint(t, P_ACCESS), sg_race_class_access(sg_race_class_of(r->kind), 1),
                (void *)r->addr, (unsigned long)(r->addr - c->base), c->size,
                c->origin == SG_ORIGIN_KERNEL   ? "allocation passed to a kernel"
                : c->origin == SG_ORIGIN_MEMSET ? "memset"
                : c->origin == SG_ORIGIN_MEMOP  ? "memory write"
                                                : "copy",
                (void *)c->base, r->tid, r->access_api ? ", the driver's own inside " : "",
                r->access_api ? r->access_api : "", paint(t, P_END));
    text_stack(t, &v->access);
    if (is_device_race(r))
        tprintf(t, "%s  %s%.255s %s on %s by %s in thread %ld, %s device memory [%p, %p)%s:%s\n",
                paint(t, P_COPY),
                c->kernel                       ? "Kernel "
                : c->origin == SG_ORIGIN_MEMSET ? "Memset"
                                                : "Copy",
                c->kernel ? c->kernel : "", c->kernel ? "launched" : "enqueued", stream,
                c->api, c->tid, r->kind == SG_RACE_DEVICE_WAR ? "reading" : "writing",
                (void *)c->base, (void *)(c->base + c->size),
                c->npcs ? "" : " (its stack is no longer kept)", paint(t, P_END));
    else if (c->kernel)
        tprintf(t, "%s  Kernel %.255s launched on %s by %s in thread %ld:%s\n", paint(t, P_COPY),
                c->kernel, stream, c->api, c->tid, paint(t, P_END));
    else
        tprintf(t, "%s  %s enqueued on %s by %s in thread %ld:%s\n", paint(t, P_COPY),
                c->origin == SG_ORIGIN_MEMSET  ? "Memset"
                : c->origin == SG_ORIGIN_MEMOP ? "Memory write"
                                               : "Copy",
                stream, c->api, c->tid,
                paint(t, P_END));
    text_stack(t, &v->copy);
    if (is_device_race(r)) {
        device_race_tail(t, r);
        goto summary;
    }
    tprintf(t, "  %s\n", sg_explain_intro(v));
    for (int i = 0; i < v->nreasons; i++)
        tprintf(t, "    %s\n", v->reasons[i]);
    if (r->kind == SG_RACE_COPY_OVERLAP)
        tprintf(t, "  syncguard cannot order the two copies: the program goes on as it would "
                   "without it.\n");
    else if (r->access_api)
        tprintf(t, "  syncguard cannot wait inside the driver's call: the program goes on as it "
                   "would without it.\n");
    else if (sg_opt.mode == SG_MODE_REPORT && r->kind == SG_RACE_FREE_IN_FLIGHT)
        tprintf(t, "  syncguard waited for the copy before letting the memory go back to the "
                   "driver.\n");
    else if (sg_opt.mode == SG_MODE_REPORT && c->origin != SG_ORIGIN_COPY)
        tprintf(t, "  syncguard waited for the %s before letting the access through: the "
                   "program sees what it wrote.\n",
                c->origin == SG_ORIGIN_KERNEL   ? "kernel"
                : c->origin == SG_ORIGIN_MEMSET ? "memset"
                                                : "memory write");
    else if (sg_opt.mode == SG_MODE_REPORT)
        tprintf(t, "  syncguard waited for the copy before letting the access through: the "
                   "program sees the copied data.\n");
    if (c->origin == SG_ORIGIN_KERNEL && c->probe_unwaited)
        tprintf(t, "  The host's first read of it, at %p, found the kernel running and went "
                   "through after kernel_read_wait_ms=%ld without it (the kernel might have "
                   "been waiting for the host): that read may have seen the old bytes.\n",
                (void *)c->probe_addr, sg_opt.kernel_read_wait_ms);
    if (c->origin == SG_ORIGIN_KERNEL && c->learnt)
        tprintf(t, "  What the kernel does with this allocation was learnt from its launches "
                   "(learn_kernels): it %s it.\n",
                c->guard == SG_GUARD_READ_ONLY ? "reads" : "writes");
summary:
    /* The SUMMARY line must survive a truncated report. */
    if (t->n > sizeof t->buf - 1024)
        t->n = sizeof t->buf - 1024;
    tprintf(t, "%sSUMMARY: syncguard: %s %s%s\n", paint(t, P_BOLD), sg_race_kind_name(r->kind),
            v->where, paint(t, P_END));
}

const char *sg_render_text(const struct sg_race_view *v, size_t *len)
{
    static struct text logged, plain;
    logged.color = use_color();
    render(&logged, v);
    sg_log_write(logged.buf, logged.n);
    const struct text *t = &logged;
    if (logged.color) {
        plain.color = 0;
        render(&plain, v);
        t = &plain;
    }
    *len = t->n;
    return t->buf; /* tprintf keeps it NUL-terminated */
}
