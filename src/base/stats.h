/* SPDX-License-Identifier: Apache-2.0 */
/* Counters of what syncguard did in this process, printed at exit with
 * verbosity>=1 (and in the JSON summary): where its time goes in a slow
 * run. Each is one relaxed atomic add, signal-safe. */
#ifndef SG_BASE_STATS_H
#define SG_BASE_STATS_H

#include <time.h>

/* SG_STAT(name, what it counts) */
#define SG_STATS(SG_STAT)                                                              \
    SG_STAT(mprotect_calls, "mprotect calls")                                          \
    SG_STAT(pages_guarded, "pages guarded (summed over copies)")                       \
    SG_STAT(faults_race, "faults on a pending copy's bytes")                           \
    SG_STAT(faults_waited, "faults on the bytes of a copy another thread handles")     \
    SG_STAT(faults_neighbour, "faults single-stepped (a neighbour on a guarded page)") \
    SG_STAT(faults_emulated, "faults emulated (a neighbour's plain load or store)")    \
    SG_STAT(faults_settled, "faults that waited for a page's copies")                  \
    SG_STAT(faults_stale, "faults retried (the page opened meanwhile)")                \
    SG_STAT(faults_passed_on, "faults passed to the program")                          \
    SG_STAT(faults_let_through, "faults let through unchecked (a signal handler inside syncguard or the driver)") \
    SG_STAT(faults_ordered_before, "accesses of a host function ordered before the copy") \
    SG_STAT(waits_abandoned, "accesses let through unreported: a bounded wait ran out") \
    SG_STAT(syscall_windows, "system-call buffers opened")                             \
    SG_STAT(guards_skipped_maps, "copies left unguarded near the limit on mappings")   \
    SG_STAT(guards_dropped_maps, "guards opened early: the kernel refused a split")    \
    SG_STAT(maps_reads, "readings of /proc/self/maps to count the mappings")          \
    SG_STAT(pinned_huge, "pinned allocations on huge pages (huge_pinned)")            \
    SG_STAT(copies_sampled_out, "copies left unguarded by the sampled mode (sample=N)") \
    SG_STAT(faults_in_call, "the driver's own accesses inside a call ordered after the copy") \
    SG_STAT(kernel_first_reads, "first host reads of a kernel's range, let through")     \
    SG_STAT(kernel_channels, "pinned allocations found to signal between host and kernel") \
    SG_STAT(mprotect_ns, "nanoseconds spent in syncguard's mprotect calls")           \
    SG_STAT(fault_ns, "nanoseconds spent handling faults and single steps")

enum sg_stat {
#define SG_STAT_ENUM(name, what) SG_STAT_##name,
    SG_STATS(SG_STAT_ENUM)
#undef SG_STAT_ENUM
    SG_NSTATS
};

extern unsigned long sg_stats[SG_NSTATS];

static inline void sg_stat_add(enum sg_stat s, unsigned long n)
{
    __atomic_fetch_add(&sg_stats[s], n, __ATOMIC_RELAXED);
}

/* A monotonic clock for the _ns counters: clock_gettime is
 * async-signal-safe, and a vDSO call of some 20 ns, small beside the
 * mprotect calls and faults it times. */
static inline unsigned long sg_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long)t.tv_sec * 1000000000ul + (unsigned long)t.tv_nsec;
}

/* Nanoseconds left before a deadline on that clock; 0 once it passed.
 * Waits bounded this way stay bounded however often signals cut them
 * short. */
static inline long sg_ns_left(unsigned long deadline)
{
    unsigned long now = sg_now_ns();
    return now >= deadline ? 0 : (long)(deadline - now);
}

static inline void sg_stat_since(enum sg_stat s, unsigned long start_ns)
{
    sg_stat_add(s, sg_now_ns() - start_ns);
}

static inline unsigned long sg_stat_get(enum sg_stat s)
{
    return __atomic_load_n(&sg_stats[s], __ATOMIC_RELAXED);
}

/* "name=N, ..." of all counters into buf. */
void sg_stats_format(char *buf, unsigned long len);
const char *sg_stat_name(enum sg_stat s);

#endif
