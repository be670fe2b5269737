/* The SIGSEGV handler: the most dangerous code in syncguard. It runs in the
 * middle of arbitrary program code, so it allocates nothing, uses no stdio
 * and takes only the model lock, which the interrupted code cannot hold
 * (syncguard never touches guarded memory while holding it; that case is
 * detected and treated as syncguard's own bug).
 *
 * A fault on a guarded page is one of:
 *  - a race: the address lies in the bytes of a pending copy the access
 *    conflicts with. Report (per mode), wait for the copy, release it,
 *    return: the instruction runs again on open, correct memory.
 *  - a neighbour: the page is guarded but the bytes belong to no
 *    conflicting copy (allocator neighbours, small buffers packed
 *    together). Open the page, single-step the instruction, close it again
 *    (step.c); if the page keeps faulting, wait for its copies instead.
 *  - a release race: the page was opened between the fault and now. Retry.
 * Anything else is not syncguard's, and goes where it would have gone. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "syncguard/common.h"
#include "syncguard/copies.h"
#include "syncguard/fault.h"
#include "syncguard/guard.h"
#include "syncguard/intercept.h"
#include "syncguard/options.h"
#include "syncguard/report.h"
#include "syncguard/stack.h"

int sg_step_begin(uintptr_t page, ucontext_t *uc);
void sg_forward_signal(int sig, siginfo_t *si, void *uc);

#define PAGE_COPIES_MAX 64

static __thread uintptr_t retry_addr;
static __thread int retry_count;

static int is_write_fault(const ucontext_t *uc)
{
    /* x86-64 page-fault error code: bit 1 set for a write. */
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
}

static int race_kind(const struct sg_copy *c, int is_write)
{
    if (c->guard == SG_GUARD_READ_ONLY)
        return SG_RACE_EARLY_WRITE_SRC;
    return is_write ? SG_RACE_EARLY_WRITE_DST : SG_RACE_EARLY_READ;
}

/* Waits until the copy is done on the device. Returns whether it was still
 * running when the host touched it. */
static int wait_for_copy(CUevent ev, CUstream h)
{
    const struct sg_driver *d = sg_driver();
    if (!ev)
        return d->cuStreamSynchronize(h), 1;
    int in_flight = d->cuEventQuery(ev) == CUDA_ERROR_NOT_READY;
    if (in_flight)
        d->cuEventSynchronize(ev);
    return in_flight;
}

/* Releases a copy we marked HANDLING, unless someone else already did. */
static void release_if_ours(struct sg_copy *c, uint64_t id)
{
    sg_lock(&sg_model_lock);
    if (c->id == id && c->state == SG_COPY_HANDLING)
        sg_copy_release(c);
    sg_unlock(&sg_model_lock);
}

static void act_on_report(void)
{
    if (sg_opt.mode == SG_MODE_ABORT) {
        signal(SIGABRT, SIG_DFL);
        abort();
    }
    if (sg_opt.halt_on_error)
        _exit((int)sg_opt.exitcode);
}

/* Called and returns with sg_model_lock held... released inside. */
static void handle_race(struct sg_copy *c, uintptr_t addr, ucontext_t *uc, int is_write)
{
    struct sg_race race;
    int first = c->state == SG_COPY_ACTIVE; /* else another thread handles it */
    race.kind = race_kind(c, is_write);
    race.addr = addr;
    race.tid = sg_gettid();
    memcpy(&race.copy, c, sizeof *c);
    uint64_t id = c->id;
    c->state = SG_COPY_HANDLING;
    sg_unlock(&sg_model_lock);

    int want_report = first && sg_opt.mode != SG_MODE_SYNC;
    race.npcs = want_report ? sg_stack_capture_signal(uc, race.pcs, (int)sg_opt.max_frames) : 0;
    race.in_flight = wait_for_copy(race.copy.event, race.copy.stream.handle);
    release_if_ours(c, id);
    if (want_report && (race.in_flight || sg_opt.report_latent)) {
        sg_report_race(&race);
        act_on_report();
    }
}

struct page_copies {
    int n;
    struct sg_copy *c[PAGE_COPIES_MAX];
    uint64_t id[PAGE_COPIES_MAX];
};

static void collect_active(struct sg_copy *c, void *arg)
{
    struct page_copies *pc = arg;
    if (c->state != SG_COPY_ACTIVE || pc->n == PAGE_COPIES_MAX)
        return;
    c->state = SG_COPY_HANDLING;
    pc->c[pc->n] = c, pc->id[pc->n] = c->id;
    pc->n++;
}

/* The fallback for a neighbour access: wait for every copy on the page and
 * open it. Detection on that page is lost; data never is. */
static void settle_page(uintptr_t page)
{
    struct page_copies pc = { 0 };
    sg_copies_overlapping(page, page + sg_page_size, collect_active, &pc);
    sg_unlock(&sg_model_lock);
    for (int i = 0; i < pc.n; i++) {
        wait_for_copy(pc.c[i]->event, pc.c[i]->stream.handle);
        release_if_ours(pc.c[i], pc.id[i]);
    }
}

/* 1 if the fault was syncguard's and the program may go on. */
static int handle_fault(uintptr_t addr, ucontext_t *uc)
{
    if (sg_lock_held_by_me(&sg_model_lock))
        return 0; /* syncguard's own bug: let the fault take its course */
    int is_write = is_write_fault(uc), page_guarded;
    uintptr_t page = sg_page_down(addr);
    sg_lock(&sg_model_lock);
    struct sg_copy *c = sg_copies_find(addr, is_write, &page_guarded);
    if (c) {
        handle_race(c, addr, uc, is_write);
        return 1;
    }
    if (page_guarded) {
        if (sg_step_begin(page, uc)) {
            sg_unlock(&sg_model_lock);
            return 1;
        }
        settle_page(page);
        return 1;
    }
    sg_unlock(&sg_model_lock);
    /* Opened since the fault? Retry a couple of times, then give up. */
    if (sg_pinned_touches(page, page + sg_page_size)) {
        if (retry_addr != addr)
            retry_addr = addr, retry_count = 0;
        if (retry_count++ < 3)
            return 1;
    }
    return 0;
}

static void on_sigsegv(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    int ours = 0;
    if (si->si_code == SEGV_ACCERR && sg_initialized()) {
        sg_in_syncguard++;
        ours = handle_fault((uintptr_t)si->si_addr, ucv);
        sg_in_syncguard--;
    }
    errno = saved_errno;
    if (!ours)
        sg_forward_signal(sig, si, ucv);
}

void sg_step_install(void);

void sg_fault_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsegv;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    struct sigaction old;
    sg_real_sigaction(SIGSEGV, &sa, &old);
    sg_fault_set_program_action(SIGSEGV, &old);
    sg_step_install();
}
