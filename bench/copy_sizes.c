/* SPDX-License-Identifier: Apache-2.0 */
/* What a guarded copy costs against its size, and against the threads of
 * the process (issue #17: the cost should not grow with the copy; reducing
 * a protection flushes the TLB of every CPU running the process). Driver
 * API only, so it builds against the real libcuda and against the CPU
 * emulator (tests/emu) alike:
 *
 *   cc -O2 -pthread -I/usr/local/cuda/include bench/copy_sizes.c \
 *      -o copy_sizes -L<dir of libcuda.so> -lcuda
 *   ./copy_sizes sizes [SCALE]     each size: cuMemcpyDtoHAsync of the
 *                                  whole buffer into cuMemAllocHost memory
 *                                  + cuStreamSynchronize + a host read
 *   ./copy_sizes threads [SCALE]   the same at 4 KiB and 64 MiB with 1, 8,
 *                                  64 idle threads, then 64 idle + 8 busy
 *
 * Prints "case,iterations,us_per_iter" per case (mean after a warmup of a
 * tenth), and "# huge: ..." lines: how much of each pinned buffer the
 * kernel backs with huge pages (AnonHugePages in /proc/self/smaps; 0 for
 * the driver's own allocations, which are not anonymous memory). SCALE
 * multiplies the iteration counts (run.sh passes 0.1 under
 * compute-sanitizer). Exit 2 on a CUDA error. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cu_check.h"
#include "now_us.h"

#define KIB 1024ul
#define MIB (1024ul * 1024ul)

static double scale = 1.0;
static volatile unsigned char sink;

struct buf {
    size_t bytes;
    unsigned char *host;
    CUdeviceptr dev;
};

/* kB of huge pages backing the mapping that holds p (-1: not found). */
static long anon_huge_kb(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    char line[512];
    int in = 0;
    long kb = -1;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
            in = lo <= (uintptr_t)p && (uintptr_t)p < hi;
        else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
            break;
    }
    if (f)
        fclose(f);
    return kb;
}

static void size_name(char *out, size_t len, size_t bytes)
{
    if (bytes >= MIB)
        snprintf(out, len, "%zuMiB", bytes / MIB);
    else
        snprintf(out, len, "%zuKiB", bytes / KIB);
}

static struct buf buf_alloc(size_t bytes)
{
    struct buf b = { bytes, NULL, 0 };
    CHECK(cuMemAllocHost((void **)&b.host, bytes));
    CHECK(cuMemAlloc(&b.dev, bytes));
    CHECK(cuMemsetD8(b.dev, 0x5a, bytes));
    memset(b.host, 1, bytes); /* the program's own first touch, as a loader's */
    CHECK(cuCtxSynchronize());
    char name[32];
    size_name(name, sizeof name, bytes);
    printf("# huge: %s buffer at %p: AnonHugePages %ld kB of %zu kB\n", name, (void *)b.host,
           anon_huge_kb(b.host), bytes / KIB);
    return b;
}

static void buf_free(struct buf *b)
{
    CHECK(cuMemFreeHost(b->host));
    CHECK(cuMemFree(b->dev));
}

/* Iterations for a copy of `bytes`: about 40 ms of copying on a PCIe 5
 * link at the large sizes, bounded below so small copies average well. */
static long iterations(size_t bytes)
{
    long n = bytes <= 4 * KIB ? 4000 : bytes <= MIB ? 1000 : bytes <= 64 * MIB ? 40 : 6;
    n = (long)(n * scale);
    return n > 2 ? n : 2;
}

static void one_copy(struct buf *b, CUstream s)
{
    CHECK(cuMemcpyDtoHAsync(b->host, b->dev, b->bytes, s));
    CHECK(cuStreamSynchronize(s));
    sink = b->host[b->bytes - 1]; /* the host uses what it waited for */
}

static void time_copies(const char *name, struct buf *b, CUstream s)
{
    long n = iterations(b->bytes), warm = n / 10 > 1 ? n / 10 : 1;
    for (long i = 0; i < warm; i++)
        one_copy(b, s);
    double t0 = now_us();
    for (long i = 0; i < n; i++)
        one_copy(b, s);
    printf("%s,%ld,%.3f\n", name, n, (now_us() - t0) / (double)n);
    fflush(stdout);
}

static void sizes(CUstream s)
{
    const size_t all[] = { 4 * KIB, MIB, 64 * MIB, 512 * MIB };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        struct buf b = buf_alloc(all[i]);
        char name[48], sz[32];
        size_name(sz, sizeof sz, all[i]);
        snprintf(name, sizeof name, "d2h_%s", sz);
        time_copies(name, &b, s);
        /* guards that split huge pages would show here */
        printf("# huge: %s buffer after its copies: AnonHugePages %ld kB\n", sz, anon_huge_kb(b.host));
        buf_free(&b);
    }
}

/* ---- threads ---- */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static int stopping;

/* Blocked for good, as most of a framework's pool threads are. */
static void *idle_thread(void *arg)
{
    pthread_mutex_lock(&idle_lock);
    while (!stopping)
        pthread_cond_wait(&idle_cond, &idle_lock);
    pthread_mutex_unlock(&idle_lock);
    return arg;
}

/* Running on a CPU of its own, touching its memory, as a data loader's. */
static void *busy_thread(void *arg)
{
    volatile char *mine = malloc(MIB);
    while (mine && !__atomic_load_n(&stopping, __ATOMIC_RELAXED))
        for (size_t i = 0; i < MIB; i += 4096)
            mine[i]++;
    return arg;
}

#define MAX_THREADS 72

static void threads(CUstream s)
{
    struct buf small = buf_alloc(4 * KIB), big = buf_alloc(64 * MIB);
    pthread_t t[MAX_THREADS];
    int n = 0;
    const int idle_steps[] = { 1, 8, 64 };
    char name[64];
    for (int k = 0; k < 3; k++) {
        while (n < idle_steps[k])
            if (pthread_create(&t[n], NULL, idle_thread, NULL) == 0)
                n++;
            else
                break;
        snprintf(name, sizeof name, "d2h_4KiB_%didle", n);
        time_copies(name, &small, s);
        snprintf(name, sizeof name, "d2h_64MiB_%didle", n);
        time_copies(name, &big, s);
    }
    int idle = n;
    while (n < idle + 8 && pthread_create(&t[n], NULL, busy_thread, NULL) == 0)
        n++;
    snprintf(name, sizeof name, "d2h_4KiB_%didle_%dbusy", idle, n - idle);
    time_copies(name, &small, s);
    snprintf(name, sizeof name, "d2h_64MiB_%didle_%dbusy", idle, n - idle);
    time_copies(name, &big, s);
    pthread_mutex_lock(&idle_lock);
    __atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&idle_cond);
    pthread_mutex_unlock(&idle_lock);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    buf_free(&small);
    buf_free(&big);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "sizes";
    if (argc > 2)
        scale = atof(argv[2]);
    if ((strcmp(what, "sizes") && strcmp(what, "threads")) || !(scale > 0)) {
        fprintf(stderr, "usage: %s sizes|threads [SCALE>0]\n", argv[0]);
        return 2;
    }
    char thp[128] = "(no " "/sys/kernel/mm/transparent_hugepage/enabled)";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
    if (f && fgets(thp, sizeof thp, f))
        thp[strcspn(thp, "\n")] = 0;
    if (f)
        fclose(f);
    printf("# huge: transparent_hugepage/enabled: %s\n", thp);
    CUdevice d;
    CUcontext ctx;
    CUstream s;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&d, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, d));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    if (strcmp(what, "sizes") == 0)
        sizes(s);
    else
        threads(s);
    CHECK(cuStreamDestroy(s));
    CHECK(cuDevicePrimaryCtxRelease(d));
    return 0;
}
