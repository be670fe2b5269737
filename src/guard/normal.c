/* What a page's protection is when syncguard does not restrict it: what
 * the program itself last asked for with mprotect (kept, so that opening a
 * guard never undoes the program's own protection), else read-write (or
 * read-only for memory registered read-only). And windows: pages opened for
 * the duration of a system call whose buffer shares them with a copy but
 * does not touch the copy's bytes. All with sg_model_lock held; fixed
 * arrays, as the fault handler uses this too. */
#include "config.h"

#include <sys/mman.h>

#include "syncguard/guard.h"
#include "syncguard/log.h"
#include "syncguard/model.h"

#define PROGRAM_PROTS 256
#define WINDOWS 64

struct span {
    uintptr_t lo, hi;
    int prot; /* program protections */
    int count; /* windows: how many calls hold it open */
};

static struct span program[PROGRAM_PROTS];
static int nprogram;
static struct span windows[WINDOWS];
static int nwindows;

static int covers(const struct span *s, uintptr_t a)
{
    return s->lo <= a && a < s->hi;
}

int sg_guard_normal_prot(uintptr_t page)
{
    for (int i = nprogram - 1; i >= 0; i--) /* the latest call wins */
        if (covers(&program[i], page))
            return program[i].prot;
    unsigned flags = 0;
    if (sg_pinned_lookup(page, 1, &flags) && (flags & SG_PINNED_READ_ONLY))
        return PROT_READ;
    return PROT_READ | PROT_WRITE;
}

int sg_guard_in_window(uintptr_t page)
{
    for (int i = 0; i < nwindows; i++)
        if (covers(&windows[i], page))
            return 1;
    return 0;
}

void sg_guard_edges(uintptr_t lo, uintptr_t hi, void (*add)(void *, uintptr_t), void *arg)
{
    for (int i = 0; i < nprogram; i++)
        if (program[i].lo < hi && program[i].hi > lo)
            add(arg, program[i].lo), add(arg, program[i].hi);
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo < hi && windows[i].hi > lo)
            add(arg, windows[i].lo), add(arg, windows[i].hi);
}

void sg_guard_program_prot(uintptr_t lo, uintptr_t hi, int prot)
{
    static int said;
    /* A later call over the same range replaces an earlier one. */
    for (int i = 0; i < nprogram; i++)
        if (program[i].lo == lo && program[i].hi == hi) {
            program[i].prot = prot;
            return;
        }
    if (nprogram == PROGRAM_PROTS) {
        sg_log_warn_once(&said, "too many mprotect calls on pinned memory to remember; "
                                "syncguard may restore read-write access to some of it");
        return;
    }
    program[nprogram++] = (struct span){ lo, hi, prot, 0 };
}

void sg_guard_forget_program_prot(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nprogram;)
        if (program[i].lo >= lo && program[i].hi <= hi)
            program[i] = program[--nprogram];
        else
            i++;
}

int sg_guard_window_open(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo == lo && windows[i].hi == hi)
            return windows[i].count++, 0;
    if (nwindows == WINDOWS)
        return -1;
    windows[nwindows++] = (struct span){ lo, hi, 0, 1 };
    sg_guard_update(lo, hi);
    return 0;
}

void sg_guard_window_close(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo == lo && windows[i].hi == hi) {
            if (--windows[i].count == 0) {
                windows[i] = windows[--nwindows];
                sg_guard_update(lo, hi);
            }
            return;
        }
}

void sg_guard_after_fork_child(void)
{
    nprogram = nwindows = 0;
}
