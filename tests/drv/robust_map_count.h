/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the robust_map_count_* programs: the kernel's limit on a
 * process's memory mappings (vm.max_map_count, 65530 by default) and a
 * program that uses up nearly all of them itself.  Every mprotect that
 * changes part of a mapping splits it, so guards cost mappings; at the
 * limit such a split fails with ENOMEM. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

struct filler {
    size_t n, cap;
    void **at;
};

/* Maps single pages, alternately readable and inaccessible so that the
 * kernel cannot merge them, until mmap fails (the process is then at its
 * limit), then unmaps `spare` of them again. */
static inline void fill_mappings(struct filler *f, size_t spare)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    f->cap = 1 << 17;
    f->n = 0;
    /* A machine whose limit is far above the default (the GPU machine's)
     * would take this program more mappings than it makes to reach it. */
    FILE *limit = fopen("/proc/sys/vm/max_map_count", "r");
    unsigned long max_maps = 0;
    if (limit && fscanf(limit, "%lu", &max_maps) == 1 && max_maps > f->cap) {
        printf("SKIP: vm.max_map_count is %lu here, more mappings than this test makes (%zu)\n",
               max_maps, f->cap);
        exit(77);
    }
    if (limit)
        fclose(limit);
    f->at = sgt_malloc(f->cap * sizeof *f->at);
    for (;;) {
        void *p = mmap(NULL, page, f->n % 2 ? PROT_READ : PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            if (errno != ENOMEM) {
                perror("mmap");
                exit(2);
            }
            break;
        }
        if (f->n == f->cap) {
            printf("no limit on mappings reached after %zu\n", f->n);
            exit(2);
        }
        f->at[f->n++] = p;
    }
    for (size_t i = 0; i < spare && f->n > 0; i++)
        munmap(f->at[--f->n], page);
}

static inline void unfill_mappings(struct filler *f)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    while (f->n > 0)
        munmap(f->at[--f->n], page);
    free(f->at);
}

/* Whether the program can still make n mappings of its own and a thread. */
static inline void *idle_thread(void *arg)
{
    return arg;
}

static inline int program_can_map(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void **at = sgt_malloc(n * sizeof *at);
    size_t made = 0;
    for (; made < n; made++) {
        at[made] = mmap(NULL, page, made % 2 ? PROT_READ : PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (at[made] == MAP_FAILED)
            break;
    }
    pthread_t t;
    int thread_rc = pthread_create(&t, NULL, idle_thread, NULL);
    if (thread_rc == 0)
        pthread_join(t, NULL);
    for (size_t i = 0; i < made; i++)
        munmap(at[i], page);
    free(at);
    printf("the program's own mmap: %zu of %zu made; pthread_create: %s\n", made, n,
           thread_rc == 0 ? "ok" : "FAILED");
    return made == n && thread_rc == 0;
}
