/* SPDX-License-Identifier: Apache-2.0 */
/* What a page's protection is when syncguard does not restrict it: what
 * the program itself last asked for with mprotect (kept, so that opening a
 * guard never undoes the program's own protection), else read-write (or
 * read-only for memory registered read-only). And windows: pages opened for
 * the duration of a system call whose buffer shares them with a copy but
 * does not touch the copy's bytes. All with sg_model_lock held; fixed
 * arrays, as the fault handler uses this too.
 *
 * The program's protections are kept as the kernel keeps them: sorted,
 * disjoint spans, each page in at most one. A new call overwrites what it
 * covers (trimming or splitting older spans), so no order between spans
 * is needed to know which call was the last on a page. */
#include "config.h"

#include <string.h>
#include <sys/mman.h>


#include "base/log.h"
#include "base/options.h"
#include "base/page.h"
#include "guard/guard.h"
#include "model/model.h"

#define PROGRAM_PROTS 256
#define WINDOWS 256 /* every system call on pinned memory holds one */

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
    for (int i = 0; i < nprogram && program[i].lo <= page; i++)
        if (covers(&program[i], page))
            return program[i].prot;
    unsigned flags = 0;
    if (sg_pinned_lookup(page, 1, &flags) && (flags & SG_PINNED_READ_ONLY))
        return PROT_READ;
    return PROT_READ | PROT_WRITE;
}

int sg_guard_program_prot_unlocked(uintptr_t page)
{
    int n = __atomic_load_n(&nprogram, __ATOMIC_RELAXED);
    for (int i = 0; i < n && i < PROGRAM_PROTS; i++)
        if (covers(&program[i], page))
            return program[i].prot;
    return -1;
}

int sg_guard_in_window(uintptr_t page)
{
    for (int i = 0; i < nwindows; i++)
        if (covers(&windows[i], page))
            return 1;
    return 0;
}

/* Pages holding a synchronization word (a mutex, a semaphore...): an atomic
 * read-modify-write faulted there outside every copy's bytes. glibc calls
 * futex() on such words, and the kernel's futex reads the word itself: on
 * an inaccessible page FUTEX_WAIT fails with EFAULT, to which glibc
 * answers by aborting the process ("The futex facility returned an
 * unexpected error code"), and no signal lets syncguard open the page
 * first. So a device-to-host copy guards such a page read-only, not
 * inaccessible: the futex works, early writes there are still caught,
 * early reads there are not (the page's other copies' bytes, on other
 * pages, are guarded as before). Learned, not known in advance: the
 * atomic that first meets the page is stepped, and the page is guarded
 * read-only from then on, before the futex call that follows it; kept
 * until the memory is no longer pinned. */
#define SYNC_PAGES 1024
static uintptr_t sync_pages[SYNC_PAGES];
static int nsync;

void sg_guard_sync_page(uintptr_t page)
{
    if (sg_guard_is_sync_page(page))
        return;
    if (nsync == SYNC_PAGES) {
        SG_WARN_ONCE("more than %d pinned pages hold lock words next to copies; further ones "
                     "stay inaccessible while guarded\n",
                     SYNC_PAGES);
        return;
    }
    sync_pages[nsync++] = page;
    SG_VLOG(2, "page %#lx holds a synchronization word: guarded read-only from now on\n",
            (unsigned long)page);
}

int sg_guard_is_sync_page(uintptr_t page)
{
    for (int i = 0; i < nsync; i++)
        if (sync_pages[i] == page)
            return 1;
    return 0;
}

static void forget_sync_pages(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nsync;)
        if (sync_pages[i] >= lo && sync_pages[i] < hi)
            sync_pages[i] = sync_pages[--nsync];
        else
            i++;
}

void sg_guard_edges(uintptr_t lo, uintptr_t hi, void (*add)(void *, uintptr_t), void *arg)
{
    for (int i = 0; i < nsync; i++)
        if (sync_pages[i] < hi && sync_pages[i] + sg_page_size > lo)
            add(arg, sync_pages[i]), add(arg, sync_pages[i] + sg_page_size);
    for (int i = 0; i < nprogram; i++)
        if (program[i].lo < hi && program[i].hi > lo)
            add(arg, program[i].lo), add(arg, program[i].hi);
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo < hi && windows[i].hi > lo)
            add(arg, windows[i].lo), add(arg, windows[i].hi);
}

/* The spans [*i, *j) that overlap [lo, hi), and with touching also those
 * that only touch it (the list is sorted and disjoint). */
static void spans_meeting(uintptr_t lo, uintptr_t hi, int touching, int *i, int *j)
{
    int a = 0, b;
    while (a < nprogram && (touching ? program[a].hi < lo : program[a].hi <= lo))
        a++;
    for (b = a; b < nprogram && (touching ? program[b].lo <= hi : program[b].lo < hi); b++)
        ;
    *i = a, *j = b;
}

/* Replaces the spans [i, j) by the n spans of with; -1 if they do not fit. */
static int splice(int i, int j, const struct span *with, int n)
{
    if (nprogram - (j - i) + n > PROGRAM_PROTS)
        return -1;
    memmove(&program[i + n], &program[j], (size_t)(nprogram - j) * sizeof *program);
    if (n)
        memcpy(&program[i], with, (size_t)n * sizeof *with);
    nprogram += n - (j - i);
    return 0;
}

/* Gives [lo, hi) the protection prot, or no program protection (prot < 0):
 * the spans it overlaps keep only what lies outside it, and spans of the
 * same protection that touch it merge with it. -1 if that does not fit. */
static int set_span(uintptr_t lo, uintptr_t hi, int prot)
{
    int i, j;
    spans_meeting(lo, hi, 1, &i, &j);
    /* [i, j) overlap or touch [lo, hi); what they have outside it stays,
     * as part of the new span where the protection is the same. */
    struct span with[3];
    int n = 0;
    if (i < j && program[i].lo < lo) {
        if (program[i].prot == prot)
            lo = program[i].lo;
        else
            with[n++] = (struct span){ program[i].lo, lo, program[i].prot, 0 };
    }
    struct span right = { 0, 0, -1, 0 };
    if (i < j && program[j - 1].hi > hi) {
        if (program[j - 1].prot == prot)
            hi = program[j - 1].hi;
        else
            right = (struct span){ hi, program[j - 1].hi, program[j - 1].prot, 0 };
    }
    if (prot >= 0)
        with[n++] = (struct span){ lo, hi, prot, 0 };
    if (right.prot >= 0)
        with[n++] = right;
    return splice(i, j, with, n);
}

/* No room for what set_span needed: every span overlapping [lo, hi) is
 * forgotten whole instead (which always fits), rather than an older
 * protection kept for pages the program has changed since. */
static void no_room(uintptr_t lo, uintptr_t hi)
{
    int i, j;
    spans_meeting(lo, hi, 0, &i, &j);
    splice(i, j, NULL, 0);
    SG_WARN_ONCE("too many mprotect calls on pinned memory to remember; syncguard may restore "
                 "read-write access to some of it\n");
}

void sg_guard_program_prot(uintptr_t lo, uintptr_t hi, int prot)
{
    if (set_span(lo, hi, prot) != 0)
        no_room(lo, hi);
}

void sg_guard_forget_program_prot(uintptr_t lo, uintptr_t hi)
{
    forget_sync_pages(sg_page_up(lo), sg_page_down(hi));
    /* Only whole pages: one partly outside may hold other memory the
     * program protected. */
    lo = sg_page_up(lo), hi = sg_page_down(hi);
    if (lo < hi && set_span(lo, hi, -1) != 0)
        no_room(lo, hi);
}

int sg_guard_window_add(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo == lo && windows[i].hi == hi)
            return windows[i].count++, 0;
    if (nwindows == WINDOWS)
        return -1;
    windows[nwindows++] = (struct span){ lo, hi, 0, 1 };
    return 1;
}

int sg_guard_window_remove(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nwindows; i++)
        if (windows[i].lo == lo && windows[i].hi == hi) {
            if (--windows[i].count == 0) {
                windows[i] = windows[--nwindows];
                return 1;
            }
            return 0;
        }
    return 0;
}

void sg_guard_after_fork_child(void)
{
    nprogram = nwindows = nsync = 0;
}
