/* SPDX-License-Identifier: Apache-2.0 */
/* signal_neighbour_storm: a program's signal handler that touches a guarded
 * page. The main thread does N iterations of: a 256-byte copy into the
 * start of a pinned page, cuStreamSynchronize, a check of the bytes. A
 * SIGUSR1 every 50 us (a timer to the main thread) runs a handler that
 * increments a byte elsewhere on that page (a neighbour of the copy), with
 * plain moves ("plain": syncguard emulates them) or an add to memory
 * ("add": single-stepped; x86-64 only, plain moves elsewhere). Most
 * signals land while the main thread waits in the driver.
 *
 *   cc -O2 -I/usr/local/cuda/include bench/signal_neighbour_storm.c \
 *      -o signal_neighbour_storm -lcuda
 *   LD_PRELOAD=src/.libs/libsyncguard.so ./signal_neighbour_storm \
 *      [N [plain|add [CAP_S [PERIOD_US]]]]
 *
 * (on the CPU emulator: LD_LIBRARY_PATH=tests/emu/.libs.) Prints
 * "signal_neighbour_storm,MODE,DONE,N,SECONDS,SIGNALS"; if the N
 * iterations are not done within CAP_S seconds (default 40) it prints the
 * line with the iterations done so far and exits 1. PERIOD_US (default 50)
 * 0: no signals, the loop's own cost. Exit 1 also if a copy's
 * bytes or the handler's count are wrong, 2 on a CUDA error. */
#define _GNU_SOURCE
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cu_check.h"
#include "now_us.h"

#define BYTES 256

static volatile unsigned char *neighbour;
static int add_mode;
static volatile long ticks, done, iterations;
static const char *mode_name;
static double t0;

static void on_usr1(int sig)
{
    (void)sig;
#if defined(__x86_64__)
    if (add_mode) {
        __asm__ volatile("addb $1, %0" : "+m"(*neighbour));
        ticks++;
        return;
    }
#endif
    *neighbour = *neighbour + 1;
    ticks++;
}

static void print_line(int fd)
{
    char line[160];
    int n = snprintf(line, sizeof line, "signal_neighbour_storm,%s,%ld,%ld,%.3f,%ld\n", mode_name,
                     (long)done, (long)iterations, (now_us() - t0) / 1e6, (long)ticks);
    if (n > 0 && write(fd, line, (size_t)n) < 0)
        _exit(2);
}

/* The cap: say how far it got. (snprintf in a handler: the program ends
 * here, and the main thread is blocked in the driver, not in stdio.) */
static void on_alarm(int sig)
{
    (void)sig;
    print_line(1);
    _exit(1);
}

int main(int argc, char **argv)
{
    iterations = argc > 1 ? atol(argv[1]) : 3000;
    add_mode = argc > 2 && strcmp(argv[2], "add") == 0;
    mode_name = add_mode ? "add" : "plain";
    unsigned cap = argc > 3 ? (unsigned)atoi(argv[3]) : 40;
    long period_ns = (argc > 4 ? atol(argv[4]) : 50) * 1000;
    CUdevice d;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&d, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, d));
    CHECK(cuCtxSetCurrent(ctx));
    CUstream s;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    CHECK(cuMemAlloc(&dev, BYTES));
    CHECK(cuMemsetD8(dev, 0x5e, BYTES));
    CHECK(cuCtxSynchronize());
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *raw;
    CHECK(cuMemAllocHost((void **)&raw, 2 * page));
    unsigned char *p = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    neighbour = p + 2048;
    *neighbour = 0;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGUSR1;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0) {
        perror("timer_create");
        return 2;
    }
    struct timespec period = { period_ns / 1000000000l, period_ns % 1000000000l };
    struct itimerspec every = { period, period };
    t0 = now_us();
    alarm(cap);
    timer_settime(timer, 0, &every, NULL);
    long wrong = 0;
    for (long i = 0; i < iterations; i++) {
        memset(p, 0, BYTES);
        CHECK(cuMemcpyDtoHAsync(p, dev, BYTES, s));
        CHECK(cuStreamSynchronize(s));
        for (int b = 0; b < BYTES; b++)
            wrong += p[b] != 0x5e;
        done = i + 1;
    }
    timer_delete(timer);
    alarm(0);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    print_line(1);
    int count_ok = *neighbour == (unsigned char)ticks;
    if (wrong || !count_ok)
        printf("%ld bytes wrong; the handler's count %s\n", wrong, count_ok ? "right" : "WRONG");
    CHECK(cuMemFreeHost(raw));
    CHECK(cuMemFree(dev));
    return wrong || !count_ok ? 1 : 0;
}
