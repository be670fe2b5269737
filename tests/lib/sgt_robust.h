/* SPDX-License-Identifier: Apache-2.0 */
/* sgt_robust.h - helpers shared by the robust_* driver-API test programs
 * (tests/drv/robust_*.c), on top of sgtest.h: the set-up and tear-down of
 * the buffers a test copies through, checks that count failures and go on,
 * and the plumbing of the tests that fork, pipe, start threads or install
 * signal handlers.
 *
 * Everything is static inline (or a macro), so that a test using only some
 * of the helpers gets no warning for the others.  The accesses under test
 * are never made here: they stay in the tests, where reports must place
 * them (file, line and function).
 */
#ifndef SGT_ROBUST_H
#define SGT_ROBUST_H

#include <cuda.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgtest.h"

/* ---- buffers ---- */

/* n bytes of device memory holding `value` in every byte (cuMemAlloc,
 * cuMemsetD8), then cuCtxSynchronize: no work is pending afterwards, so
 * the copies the test enqueues next are the only work. */
static inline CUdeviceptr sgt_dev_bytes(size_t n, unsigned char value)
{
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, n));
    SGT_CHECK(cuMemsetD8(dev, value, n));
    SGT_CHECK(cuCtxSynchronize());
    return dev;
}

/* The same with 32-bit words: `words` words holding `value` (cuMemsetD32). */
static inline CUdeviceptr sgt_dev_words(size_t words, uint32_t value)
{
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, words * sizeof(uint32_t)));
    SGT_CHECK(cuMemsetD32(dev, value, words));
    SGT_CHECK(cuCtxSynchronize());
    return dev;
}

/* n bytes of page-locked host memory (cuMemAllocHost) holding `value` in
 * every byte. */
static inline unsigned char *sgt_pinned_bytes(size_t n, unsigned char value)
{
    unsigned char *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, n));
    memset(host, value, n);
    return host;
}

/* The same with 32-bit words: `words` words holding `value`. */
static inline uint32_t *sgt_pinned_words(size_t words, uint32_t value)
{
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, words * sizeof(uint32_t)));
    for (size_t i = 0; i < words; i++)
        host[i] = value;
    return host;
}

/* malloc, or exit with status 2. */
static inline void *sgt_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    return p;
}

/* Frees what most tests copy through, in this order: the pinned host
 * buffer, the device buffer, the stream. */
static inline void sgt_free_all(CUstream s, CUdeviceptr dev, void *host)
{
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
}

/* ---- the verdict ---- */

/* The program's last line: prints "check: ok" and returns 0 (main's exit
 * status) when ok, else prints "check: MISMATCH" and returns 1. */
static inline int sgt_check_line(int ok)
{
    if (!ok) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

/* For tests that check many things and want to see every failure: on
 * false, SGT_SOFT_EXPECT prints "FAIL: file:line: condition" on stdout,
 * counts it in sgt_failures and goes on; sgt_soft_check_line() then ends
 * the program as sgt_check_line does, with the count. */
static unsigned sgt_failures __attribute__((unused));
#define SGT_SOFT_EXPECT(cond)                                              \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
            sgt_failures++;                                                \
        }                                                                  \
    } while (0)

static inline int sgt_soft_check_line(void)
{
    if (sgt_failures) {
        printf("check: MISMATCH (%u failed)\n", sgt_failures);
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

/* ---- threads, processes, pipes, files ---- */

/* Runs fn(NULL) in a new thread and waits for it: the thread starts with
 * syncguard's per-thread state fresh. */
static inline void sgt_run_in_thread(void *(*fn)(void *))
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL) != 0) {
        perror("pthread_create");
        exit(2);
    }
    pthread_join(t, NULL);
}

/* pipe(p), or exit with status 2. */
static inline void sgt_pipe(int p[2])
{
    if (pipe(p) != 0) {
        perror("pipe");
        exit(2);
    }
}

/* fork(), or exit with status 2. */
static inline pid_t sgt_fork(void)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    return pid;
}

/* Forks a child whose file descriptor fd is the write end of a new pipe;
 * the parent gets the read end in *read_end (and closes its copy of the
 * write end), so that it reads what the child writes to fd.  Returns
 * fork()'s value; exits with status 2 on error. */
static inline pid_t sgt_fork_piped(int fd, int *read_end)
{
    int p[2];
    sgt_pipe(p);
    pid_t pid = sgt_fork();
    if (pid == 0) {
        dup2(p[1], fd);
        close(p[0]);
        close(p[1]);
    } else
        close(p[1]);
    *read_end = p[0];
    return pid;
}

/* waitpid(pid) until it succeeds; returns the wait status. */
static inline int sgt_wait_status(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return st;
}

/* Reads fd until end of file or until buf (size bytes) is full but for a
 * terminating NUL, which it adds; returns the bytes read. */
static inline size_t sgt_read_all(int fd, char *buf, size_t size)
{
    size_t got = 0;
    ssize_t r;
    while (got < size - 1 && (r = read(fd, buf + got, size - 1 - got)) > 0)
        got += (size_t)r;
    buf[got] = '\0';
    return got;
}

/* A temporary file, "/tmp/NAME.XXXXXX" made by mkstemp and unlinked at
 * once (it lives as long as it is open); returns its descriptor, or exits
 * with status 2. */
static inline int sgt_temp_file(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/%s.XXXXXX", name);
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    unlink(path);
    return fd;
}

/* Writes n bytes of `byte` to the file open as fd (through content, the
 * caller's buffer of n bytes), then seeks back to the file's start; exits
 * with status 2 on error. */
static inline void sgt_fill_file(int fd, unsigned char *content, size_t n, unsigned char byte)
{
    memset(content, byte, n);
    if (write(fd, content, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0) {
        perror("write/lseek");
        exit(2);
    }
}

/* ---- another thread inside a system call ---- */

/* The calling thread's id (gettid), for sgt_wait_in_syscall. */
static inline long sgt_tid(void)
{
    return (long)syscall(SYS_gettid);
}

/* The system call number in the first field of a /proc/.../syscall file,
 * -1 when there is none ("running"). */
static inline long sgt_syscall_file_nr(const char *path, unsigned long *arg)
{
    char line[256];
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("SKIP: cannot read %s\n", path);
        exit(77);
    }
    long got = -1;
    int n = fgets(line, sizeof line, f) ? sscanf(line, "%ld %lx", &got, arg) : 0;
    fclose(f);
    return n == 2 ? got : -1;
}

/* Whether the kernel numbers system calls as this program does.  Under a
 * translator (qemu-user runs an aarch64 program on x86-64) the kernel sees
 * the translator's own calls, in the host's numbering: a thread reading
 * its own syscall file is inside read(), and the file says which number
 * the kernel gives read(). */
static inline int sgt_syscalls_native(void)
{
    static int native = -1;
    if (native < 0) {
        char path[64];
        unsigned long arg = 0;
        snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", sgt_tid());
        native = sgt_syscall_file_nr(path, &arg) == SYS_read;
    }
    return native;
}

/* Waits until thread tid of this process is inside system call nr with
 * its first argument in [lo, hi) (hi 0: any), as /proc/self/task/TID/syscall
 * says: a thread blocked in read() or futex() has passed every check made
 * before the call.  A wait on a state, not on time.  Under a translator
 * whose host numbers system calls otherwise the number cannot be compared,
 * and the first argument alone (a lock's address, a pipe's descriptor:
 * the translator passes both on as they are) says which call it is.  Exits
 * 77 where the file cannot be read. */
static inline void sgt_wait_in_syscall(long tid, long nr, uintptr_t lo, uintptr_t hi)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", tid);
    int native = sgt_syscalls_native();
    if (!native && hi == 0) {
        printf("SKIP: a translator numbers system calls otherwise: no argument to tell\n");
        exit(77);
    }
    for (;;) {
        unsigned long arg = 0;
        long got = sgt_syscall_file_nr(path, &arg);
        int call = native ? got == nr : got >= 0;
        if (call && (hi == 0 || (arg >= lo && arg < hi)))
            return;
        sched_yield();
    }
}

/* ---- signals ---- */

/* A struct sigaction for an SA_SIGINFO handler: flags SA_SIGINFO |
 * more_flags, an empty mask. */
static inline struct sigaction sgt_siginfo_action(void (*handler)(int, siginfo_t *, void *),
                                                  int more_flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | more_flags;
    sigemptyset(&sa.sa_mask);
    return sa;
}

/* Switches core dumps off (RLIMIT_CORE 0), for tests that die of a signal
 * on purpose. */
static inline void sgt_no_core_dumps(void)
{
    struct rlimit no_core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &no_core);
}

/* ---- probing page protections ----
 * Whether an access to an address faults, without dying of it: the
 * program's own SIGSEGV handler (syncguard passes it faults that are not
 * syncguard's) jumps back to the probe. sgt_probe_install once, then
 * sgt_probe_faults per access; sgt_probe_jb() for a test's own jump point
 * (a loop that must stop at the first fault). */
struct sgt_probe {
    sigjmp_buf jb;
    void *volatile addr;
    volatile sig_atomic_t code;
};

static inline struct sgt_probe *sgt_probe_state(void)
{
    static struct sgt_probe state;
    return &state;
}

static inline sigjmp_buf *sgt_probe_jb(void)
{
    return &sgt_probe_state()->jb;
}

static inline void sgt_probe_on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    sgt_probe_state()->addr = si->si_addr;
    sgt_probe_state()->code = si->si_code;
    siglongjmp(sgt_probe_state()->jb, 1);
}

static inline void sgt_probe_install(void)
{
    struct sigaction sa = sgt_siginfo_action(sgt_probe_on_segv, 0);
    sigaction(SIGSEGV, &sa, NULL);
}

/* 1 if the access faulted on p for want of permission, 0 if it went
 * through, -1 for a fault of another kind. */
static inline int sgt_probe_faults(volatile unsigned char *p, int is_write)
{
    struct sgt_probe *st = sgt_probe_state();
    st->addr = NULL, st->code = 0;
    if (sigsetjmp(st->jb, 1) == 0) {
        if (is_write)
            *p = 0xee;
        else
            (void)*p;
        return 0;
    }
    return st->addr == (void *)p && st->code == SEGV_ACCERR ? 1 : -1;
}

#endif
