/* SPDX-License-Identifier: Apache-2.0 */
/* What one guard costs the kernel, alone and with other threads running:
 * a protect + open pair of mprotect calls on PAGES populated pages (the
 * pair syncguard makes for each guarded copy), timed while THREADS other
 * threads of the process keep running on other CPUs. Reducing a
 * protection makes the kernel flush the TLB of every CPU that runs the
 * process, so the pair costs more in a busy multithreaded program (a
 * PyTorch training loop) than bench/micro.cu, single-threaded, shows.
 * CPU only, no CUDA:
 *
 *   cc -O2 -pthread bench/mprotect_threads.c -o mprotect_threads
 *   ./mprotect_threads THREADS PAGES      e.g. 0 1, 1 1, 0 1536, 1 1536
 *
 * Prints the mean microseconds of one pair over 2000 pairs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "now_us.h"
#include <unistd.h>

#define PAIRS 2000
#define MAX_THREADS 256

static volatile int stop;

/* A thread that keeps its CPU busy touching its own memory. */
static void *keep_busy(void *arg)
{
    volatile char *mine = malloc(1 << 20);
    while (mine && !stop)
        for (int i = 0; i < (1 << 20); i += 4096)
            mine[i]++;
    return arg;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    long pages = argc > 2 ? atol(argv[2]) : 1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)pages * page;
    if (threads < 0 || threads > MAX_THREADS || pages < 1) {
        fprintf(stderr, "usage: %s THREADS(0..%d) PAGES(>=1)\n", argv[0], MAX_THREADS);
        return 2;
    }
    /* Guard pages in the middle of a larger mapping, as a copy in a pinned
     * buffer: each protect splits the mapping, each open merges it back. */
    size_t map_len = len + 2 * page;
    char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    memset(map, 1, map_len);
    char *guarded = map + page;
    pthread_t t[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, keep_busy, NULL);
    struct timespec settle = { 0, 50 * 1000 * 1000 };
    nanosleep(&settle, NULL);
    double t0 = now_us();
    for (int i = 0; i < PAIRS; i++) {
        mprotect(guarded, len, PROT_READ);
        mprotect(guarded, len, PROT_READ | PROT_WRITE);
        guarded[0]++;
    }
    double t1 = now_us();
    stop = 1;
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    printf("threads=%d pages=%ld: %.2f us per protect+open pair\n", threads, pages,
           (t1 - t0) / PAIRS);
    return 0;
}
