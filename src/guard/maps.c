/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel's limit on a process's memory mappings (vm.max_map_count,
 * 65530 by default). A guard on part of a mapping splits it: up to two
 * more mappings per guarded copy. At the limit the kernel refuses every
 * split (mprotect, mmap, a thread's stack: ENOMEM), so guards must never
 * take the last mappings from the program: syncguard stops guarding new
 * copies while fewer than a reserve (an eighth of the limit) would be left
 * to it. With sg_model_lock held. And the other use of /proc/self/maps:
 * the protections of memory the program registers.
 *
 * The count is read from /proc/self/maps, which costs the kernel about
 * half a microsecond a line: 30 ms near the default limit. Reading it for
 * every copy near the limit made 40,000 copies in flight take minutes
 * (bench/map_count_cliff.c). So a reading is estimated forward: each copy
 * guarded since may have added two mappings (its guard split in three;
 * fewer where it coincides with a mapping or merges with a neighbour),
 * each copy ended since is counted as freeing nothing below the reading
 * (an estimate above the truth costs guards, never the program's
 * mappings). What the estimate cannot see is the program's own mmap and
 * munmap, so how stale a reading may get is bounded in mappings, not in
 * time: a reading holds for as many copies as could take a quarter of the
 * room it left, reserve included. Whatever the program maps meanwhile,
 * guards placed on one reading take at most that quarter from it; far from
 * the limit a reading holds for thousands of copies, near it for
 * reserve / 8 (1024 at the default limit). Once the estimate leaves no
 * room, copies are refused without a reading: refusing costs the program
 * nothing, and it is the reading that would cost; a new one is due after
 * enough copies that its lines, spread over them, are a few per copy
 * (LINES_PER_REFUSAL). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/options.h"
#include "base/stats.h"
#include "guard/guard.h"
#include "model/copies.h"

#define DEFAULT_LIMIT 65530
#define NEW_GUARD_MAPPINGS 2 /* a split in three */
/* Lines of /proc/self/maps a refused copy may pay for: a reading while
 * refusing is due after (lines it read) / LINES_PER_REFUSAL copies. */
#define LINES_PER_REFUSAL 4

static long limit, reserve;
static long measured;     /* mappings at the last reading */
static long active_then;  /* active copies then */
static long since;        /* copies asked for since */
static long holds_for;    /* copies the last reading holds for */
static long refusal_due;  /* copies refused before a reading is worth its cost */

/* The lines of /proc/self/maps, read with the system calls themselves;
 * -1 if it cannot be read. */
static long count_mappings(void)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[4096];
    long lines = 0;
    ssize_t n;
    while ((n = syscall(SYS_read, fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
    syscall(SYS_close, fd);
    return lines;
}

static long read_limit(void)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/sys/vm/max_map_count",
                          O_RDONLY | O_CLOEXEC);
    char buf[32];
    ssize_t n = fd >= 0 ? syscall(SYS_read, fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        syscall(SYS_close, fd);
    if (n <= 0)
        return DEFAULT_LIMIT;
    buf[n] = '\0';
    long v = strtol(buf, NULL, 10);
    return v > 0 ? v : DEFAULT_LIMIT;
}

void sg_maps_init(void)
{
    limit = sg_opt.map_count_limit ? sg_opt.map_count_limit : read_limit();
    reserve = limit / 8 > 64 ? limit / 8 : 64;
    measured = -1;
}

long sg_maps_limit(void)
{
    return limit;
}

/* Copies the reading of `lines` holds for (the head comment says why). */
static long trusted_copies(long lines)
{
    long room = limit - reserve - lines;
    if (room < NEW_GUARD_MAPPINGS)
        return refusal_due;
    long n = (room + reserve) / (4 * NEW_GUARD_MAPPINGS);
    return n > 1 ? n : 1;
}

static void measure(void)
{
    measured = count_mappings();
    active_then = (long)sg_copies_active_count();
    since = 0;
    refusal_due = measured / LINES_PER_REFUSAL > 1 ? measured / LINES_PER_REFUSAL : 1;
    holds_for = trusted_copies(measured);
    sg_stat_add(SG_STAT_maps_reads, 1);
}

static long estimate(void)
{
    long added = ((long)sg_copies_active_count() - active_then) * NEW_GUARD_MAPPINGS;
    return measured + (added > 0 ? added : 0);
}

static int estimate_has_room(void)
{
    return estimate() + NEW_GUARD_MAPPINGS <= limit - reserve;
}

int sg_maps_room_for_guard(void)
{
    if (measured < 0 || ++since >= holds_for)
        measure();
    if (measured < 0)
        return 1; /* no /proc: the kernel's ENOMEM is all there is */
    if (estimate_has_room())
        return 1;
    /* The estimate may be stale (the program unmapped, copies ended, guards
     * merged): read again, once the copies since have paid for it. */
    if (since >= refusal_due) {
        measure();
        if (estimate_has_room())
            return 1;
    }
    sg_stat_add(SG_STAT_guards_skipped_maps, 1);
    return 0;
}

/* The protection of a mapping from its maps line's "rwxp" field. */
static int prot_of(const char *perms)
{
    return (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
           (perms[2] == 'x' ? PROT_EXEC : 0);
}

void sg_maps_record_prots(uintptr_t lo, uintptr_t hi)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long a, b;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &a, &b, perms) != 3 || b <= lo || a >= hi)
            continue;
        int prot = prot_of(perms);
        if (prot != (PROT_READ | PROT_WRITE))
            sg_guard_program_prot(a > lo ? a : lo, b < hi ? b : hi, prot);
    }
    if (f)
        fclose(f);
}
