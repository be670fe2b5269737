/* SPDX-License-Identifier: Apache-2.0 */
/* Making the view of a race: its stacks symbolized (native frames inside
 * syncguard are never shown nor matched), the place SUMMARY names, and the
 * explanation; and the place of an enqueue site, for the sampled mode's
 * summary. Reporter thread (or the exit summary) only. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/self.h"
#include "capture/python.h"
#include "report/explain.h"
#include "report/symbolize.h"
#include "report/view.h"

/* One pc: a frame for each function inlined there, innermost first. */
static void add_native_frames(struct sg_stack_view *st, uintptr_t pc, int is_exact, int limit)
{
    static struct sg_symbol syms[SG_MAX_INLINED];
    int n = sg_symbolize_inlined(pc, is_exact, syms, SG_MAX_INLINED);
    if (n == 0) {
        struct sg_frame_view *f = &st->f[st->n++];
        f->python = 0, f->known = 0, f->pc = pc;
        memset(&f->sym, 0, sizeof f->sym);
        return;
    }
    for (int k = 0; k < n && st->n < limit; k++) {
        struct sg_frame_view *f = &st->f[st->n++];
        f->python = 0, f->known = 1, f->pc = pc;
        f->sym = syms[k];
    }
}

/* A Python frame as shown; ps NULL: one that could not be named. */
static void python_frame_view(struct sg_frame_view *f, const struct sg_pysym *ps)
{
    memset(&f->sym, 0, sizeof f->sym);
    f->python = 1, f->pc = 0;
    f->known = ps != NULL;
    if (ps) {
        snprintf(f->sym.function, sizeof f->sym.function, "%s", ps->function);
        snprintf(f->sym.file, sizeof f->sym.file, "%s", ps->file);
        f->sym.line = ps->line;
    }
}

/* Native frames inside syncguard are never shown (nor matched). The first
 * pc of an access stack is the faulting instruction, the others are return
 * addresses. Python frames keep their room. */
static void symbolize_stack(struct sg_stack_view *st, const uintptr_t *pcs, int npcs, int first_exact,
                            const struct sg_pyframe *py, int npy)
{
    int native_limit = SG_SHOWN_MAX - (npy < SG_MAX_PYFRAMES ? npy : SG_MAX_PYFRAMES);
    st->n = 0;
    for (int i = 0; i < npcs && st->n < native_limit; i++)
        if (!sg_self_contains(pcs[i]))
            add_native_frames(st, pcs[i], first_exact && i == 0, native_limit);
    for (int i = 0; i < npy && st->n < SG_SHOWN_MAX; i++) {
        struct sg_pysym ps;
        int known = sg_python_symbolize(&py[i], &ps) == 0;
        python_frame_view(&st->f[st->n++], known ? &ps : NULL);
    }
}

int sg_stack_native_count(const struct sg_stack_view *st)
{
    int n = 0;
    while (n < st->n && !st->f[n].python)
        n++;
    return n;
}

/* The innermost Python frame that was named, if any. */
static const struct sg_frame_view *python_frame(const struct sg_stack_view *st)
{
    for (int i = 0; i < st->n; i++)
        if (st->f[i].python && st->f[i].known)
            return &st->f[i];
    return NULL;
}

/* Whether a native frame names a place: not code inlined from a system
 * header (glibc's fortified read() inlined into main names main's line)
 * nor, for an enqueue site, a GPU library's (the CUDA runtime's frame is
 * not where the program enqueued: sg_symbol_in_gpu_library). */
static int names_place(const struct sg_frame_view *f, int enqueue)
{
    if (!f->known)
        return 1; /* nothing to judge it by */
    if (sg_symbol_in_system_header(&f->sym))
        return 0;
    return !enqueue || !sg_symbol_in_gpu_library(&f->sym);
}

/* The innermost native frame shown that names a place; the innermost one
 * when none does. */
static const struct sg_frame_view *native_frame(const struct sg_stack_view *st, int enqueue)
{
    int nat = sg_stack_native_count(st);
    for (int i = 0; i < nat; i++)
        if (names_place(&st->f[i], enqueue))
            return &st->f[i];
    return nat > 0 ? &st->f[0] : NULL;
}

/* "file:line in function" of f (fallback's address when f is NULL). */
static void name_frame(char *buf, size_t len, const struct sg_frame_view *f, uintptr_t fallback)
{
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

/* For SUMMARY: the innermost Python frame when there is one (a PyTorch
 * user's line, not libtorch's), else the innermost native frame of the
 * program's own code. */
static void frame_location(char *buf, size_t len, const struct sg_stack_view *st, uintptr_t fallback)
{
    const struct sg_frame_view *f = python_frame(st);
    name_frame(buf, len, f ? f : native_frame(st, 0), fallback);
}

void sg_view_stacks(struct sg_race_view *v)
{
    const struct sg_race *r = v->race;
    symbolize_stack(&v->access, r->pcs, r->npcs, 1, r->py, r->npy);
    symbolize_stack(&v->copy, r->copy.pcs, r->copy.npcs, 0, r->copy.py, r->copy.npy);
}

void sg_view_finish(struct sg_race_view *v)
{
    sg_explain_race(v); /* symbolizes the sync sites */
    frame_location(v->where, sizeof v->where, &v->access, v->race->addr);
}

void sg_view_site(char *where, size_t len, const uintptr_t *pcs, int npcs,
                  const struct sg_pysym *py)
{
    static struct sg_stack_view st; /* too large for a stack; one caller at exit */
    if (py) {
        python_frame_view(&st.f[0], py);
        name_frame(where, len, &st.f[0], 0);
        return;
    }
    symbolize_stack(&st, pcs, npcs, 0, NULL, 0);
    name_frame(where, len, native_frame(&st, 1), npcs > 0 ? pcs[0] : 0);
}
