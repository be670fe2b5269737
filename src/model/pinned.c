/* SPDX-License-Identifier: Apache-2.0 */
/* Page-locked host ranges: allocated by the driver or registered with it.
 * Only copies whose host side is in one of them run asynchronously to the
 * host (a pageable copy is complete when its call returns), so only they
 * are guarded. A sorted array, binary-searched under its own small lock. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/lock.h"
#include "base/page.h"
#include "model/model.h"

static struct sg_pin *ranges;
static size_t count, cap;
static atomic_size_t published_count;
static struct sg_pin *_Atomic published; /* ranges, for readers without the lock */
static sg_lock_t pinned_lock = SG_LOCK_INIT;
static _Atomic uint64_t generation = 1; /* bumped by every change of the table */
SG_REQUIRES(pinned_lock) static void forget_aliases_of(uintptr_t host);

uint64_t sg_pinned_generation(void)
{
    return atomic_load_explicit(&generation, memory_order_acquire);
}

int sg_pinned_any(void)
{
    return atomic_load_explicit(&published_count, memory_order_relaxed) != 0;
}

/* Index of the last range with base <= p, or -1. */
static long floor_index(uintptr_t p)
{
    long lo = 0, hi = (long)count - 1, ans = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (ranges[mid].base <= p)
            ans = mid, lo = mid + 1;
        else
            hi = mid - 1;
    }
    return ans;
}

int sg_pinned_add(const struct sg_pin *r)
{
    sg_lock(&pinned_lock);
    if (count == cap) {
        /* The old array is kept, not freed: a fault handler that
         * interrupted this thread reads it without the lock
         * (sg_pinned_touches_unlocked). Doubling, so the arrays kept add up
         * to less than the last one. */
        size_t ncap = cap ? cap * 2 : 64;
        struct sg_pin *grown = malloc(ncap * sizeof *grown);
        if (!grown) {
            sg_unlock(&pinned_lock);
            return -1; /* untracked memory is treated as pageable: never guarded */
        }
        if (count)
            memcpy(grown, ranges, count * sizeof *grown);
        atomic_store(&published, grown);
        ranges = grown, cap = ncap;
    }
    size_t at = (size_t)(floor_index(r->base) + 1);
    memmove(&ranges[at + 1], &ranges[at], (count - at) * sizeof *ranges);
    ranges[at] = *r;
    count++;
    atomic_store(&published_count, count);
    atomic_fetch_add(&generation, 1);
    sg_unlock(&pinned_lock);
    return 0;
}

int sg_pinned_remove(uintptr_t base, struct sg_pin *out)
{
    sg_lock(&pinned_lock);
    long i = floor_index(base);
    int found = i >= 0 && ranges[i].base == base;
    if (found) {
        if (out)
            *out = ranges[i];
        memmove(&ranges[i], &ranges[i + 1], (count - (size_t)i - 1) * sizeof *ranges);
        count--;
        forget_aliases_of(base);
        atomic_store(&published_count, count);
        atomic_fetch_add(&generation, 1);
    }
    sg_unlock(&pinned_lock);
    return found ? 0 : -1;
}

int sg_pinned_lookup(uintptr_t p, size_t n, unsigned *flags)
{
    if (!sg_pinned_any()) /* every copy's hot path: no lock while nothing is pinned */
        return 0;
    sg_lock(&pinned_lock);
    long i = floor_index(p);
    int in = i >= 0 && p + n <= ranges[i].base + ranges[i].size && p + n >= p;
    if (in && flags)
        *flags = ranges[i].flags;
    sg_unlock(&pinned_lock);
    return in;
}

void sg_pinned_mark_channel(uintptr_t p)
{
    sg_lock(&pinned_lock);
    long i = floor_index(p);
    if (i >= 0 && p - ranges[i].base < ranges[i].size && !(ranges[i].flags & SG_PINNED_CHANNEL)) {
        ranges[i].flags |= SG_PINNED_CHANNEL;
        atomic_fetch_add(&generation, 1); /* graphs look their kernels' pointers up again */
    }
    sg_unlock(&pinned_lock);
}

int sg_pinned_is_channel(uintptr_t p)
{
    unsigned flags = 0;
    return sg_pinned_lookup(p, 1, &flags) && (flags & SG_PINNED_CHANNEL);
}

int sg_pinned_range(uintptr_t p, uintptr_t *base, size_t *size)
{
    if (!sg_pinned_any())
        return 0;
    sg_lock(&pinned_lock);
    long i = floor_index(p);
    int in = i >= 0 && p - ranges[i].base < ranges[i].size;
    if (in)
        *base = ranges[i].base, *size = ranges[i].size;
    sg_unlock(&pinned_lock);
    return in;
}

/* Device aliases of pinned ranges: few (only where the driver gives mapped
 * memory an address of its own), so a short array under the same lock. */
#define MAX_ALIASES 64
static struct alias {
    uintptr_t alias, host;
    size_t size;
} aliases[MAX_ALIASES];
static atomic_size_t naliases;

void sg_pinned_alias_add(uintptr_t alias, size_t size, uintptr_t host_base)
{
    sg_lock(&pinned_lock);
    size_t n = atomic_load(&naliases), i = 0;
    while (i < n && aliases[i].alias != alias)
        i++;
    if (i < MAX_ALIASES) {
        aliases[i] = (struct alias){ alias, host_base, size };
        if (i == n)
            atomic_store(&naliases, n + 1);
        atomic_fetch_add(&generation, 1);
    }
    sg_unlock(&pinned_lock);
}

/* With pinned_lock held: the range at host goes, and its aliases. */
SG_REQUIRES(pinned_lock) static void forget_aliases_of(uintptr_t host)
{
    size_t n = atomic_load(&naliases);
    for (size_t i = 0; i < n;)
        if (aliases[i].host == host)
            aliases[i] = aliases[--n];
        else
            i++;
    atomic_store(&naliases, n);
}

int sg_pinned_range_any(uintptr_t p, uintptr_t *base, size_t *size)
{
    if (sg_pinned_range(p, base, size))
        return 1;
    if (atomic_load_explicit(&naliases, memory_order_relaxed) == 0)
        return 0;
    int in = 0;
    sg_lock(&pinned_lock);
    for (size_t i = 0; i < atomic_load(&naliases) && !in; i++)
        if (p - aliases[i].alias < aliases[i].size)
            in = 1, *base = aliases[i].host, *size = aliases[i].size;
    sg_unlock(&pinned_lock);
    return in;
}

int sg_pinned_base(uintptr_t p, uintptr_t *base)
{
    size_t size;
    return sg_pinned_range(p, base, &size) ? 0 : -1;
}

uintptr_t sg_pinned_unalias(uintptr_t p)
{
    if (atomic_load_explicit(&naliases, memory_order_relaxed) == 0)
        return p;
    uintptr_t host = p;
    sg_lock(&pinned_lock);
    for (size_t i = 0; i < atomic_load(&naliases); i++)
        if (p - aliases[i].alias < aliases[i].size)
            host = aliases[i].host + (p - aliases[i].alias);
    sg_unlock(&pinned_lock);
    return host;
}

size_t sg_pinned_snapshot(size_t from, struct sg_pin *out, size_t max)
{
    size_t n = 0;
    sg_lock(&pinned_lock);
    for (size_t i = from; i < count && n < max; i++, n++)
        out[n] = ranges[i];
    sg_unlock(&pinned_lock);
    return n;
}

/* With pinned_lock held: whether a range overlapping [lo, hi) has every
 * flag of want (0: any range). The ranges do not overlap, so their ends
 * grow with their bases: walking down from the last one starting below hi,
 * the first that ends at or below lo ends the search. */
SG_REQUIRES(pinned_lock) static int overlapped(uintptr_t lo, uintptr_t hi, unsigned want)
{
    for (long i = floor_index(hi - 1); i >= 0 && ranges[i].base + ranges[i].size > lo; i--)
        if ((ranges[i].flags & want) == want)
            return 1;
    return 0;
}

int sg_pinned_touches(uintptr_t lo, uintptr_t hi)
{
    sg_lock(&pinned_lock);
    int touches = overlapped(lo, hi, 0);
    sg_unlock(&pinned_lock);
    return touches;
}

int sg_pinned_touches_huge(uintptr_t lo, uintptr_t hi)
{
    if (!sg_pinned_any() || hi <= lo)
        return 0;
    sg_lock(&pinned_lock);
    int touches = overlapped(lo, hi, SG_PINNED_HUGE);
    sg_unlock(&pinned_lock);
    return touches;
}

/* For a fault handler that interrupted this thread inside syncguard, where
 * taking the lock could wait for ourselves. The arrays are never freed, so
 * this reads valid memory; a change the thread was making when it was
 * interrupted may be half done (an entry moved twice, the count one off):
 * a best guess, for a fault that cannot wait. */
int sg_pinned_touches_unlocked(uintptr_t lo, uintptr_t hi)
{
    const struct sg_pin *r = atomic_load(&published);
    size_t n = atomic_load_explicit(&published_count, memory_order_relaxed);
    for (size_t i = 0; r && i < n; i++)
        if (r[i].base < hi && r[i].base + r[i].size > lo)
            return 1;
    return 0;
}

/* fork() with the lock held (after the model lock, the order every path
 * takes them in: a page's normal protection is looked up here under the
 * model lock), so that no other thread holds it mid-change in the child.
 * Taken here and given back by the next two, around fork() (preload/fork.c
 * calls them in that order): a hand-over the thread-safety analysis cannot
 * follow from one function to another, as the lock is this file's own. */
SG_NO_THREAD_SAFETY_ANALYSIS void sg_pinned_before_fork(void)
{
    sg_lock(&pinned_lock);
}

SG_NO_THREAD_SAFETY_ANALYSIS void sg_pinned_after_fork_parent(void)
{
    sg_unlock(&pinned_lock);
}

/* Taken by this (the forking) thread before fork: free it before the
 * child's clean-up looks ranges up (the ranges themselves are still valid). */
SG_NO_THREAD_SAFETY_ANALYSIS void sg_pinned_unlock_in_child(void)
{
    sg_lock_reset_held(&pinned_lock);
}

void sg_pinned_after_fork_child(void)
{
    /* fork(2) copies pinned pages as ordinary memory; the child cannot use
     * them for DMA without registering them again. */
    count = 0;
    atomic_store(&published_count, 0);
    atomic_store(&naliases, 0);
    atomic_fetch_add(&generation, 1);
}

/* Allocations from this size up get mappings of their own from the driver,
 * page-aligned (measured: 1 MiB and up); below it they come from its
 * shared pool at any 512-byte step. */
#define OWN_MAPPING_FROM (2u << 20)

/* Size to ask the driver for so that n bytes fit on pages of their own:
 * the page-rounded size, plus a page to move a pool block's start to a
 * page boundary. 0: n as it is (too large to round). */
size_t sg_pinned_isolated_size(size_t n)
{
    size_t pages = sg_page_up(n);
    if (pages < n || pages + sg_page_size < pages)
        return 0;
    return n >= OWN_MAPPING_FROM ? pages : pages + sg_page_size;
}
