/* SPDX-License-Identifier: Apache-2.0 */
/* robust_siglongjmp_wait: the program's own signal handler siglongjmps
 * out of syncguard while syncguard waits for a copy (a SIGALRM timeout
 * around a read, an interpreter's KeyboardInterrupt).  Here: an early
 * read of a copy in flight, reported; while syncguard waits for the copy
 * (the emulator calls the test back when the host blocks), SIGUSR1
 * arrives and its handler jumps back to the program.  The next calls
 * must behave: a read(2) into the same buffer returns its full count
 * (syncguard's shims still work: no EFAULT, no hang), a second early read
 * of a later copy is reported, and after synchronizing every copy's data
 * are right.  Both races are reported: a report is written before the
 * wait (#11), so the one whose wait the program left is not lost.  The copies wait
 * behind a graph's wait node (sgt_hold_stream_in_graph), which syncguard
 * does not count as a gate: the faulting thread itself waits in the
 * driver.  Emulator only (the call-back).
 *
 * SG-EMU-ONLY
 * SG-EXPECT: early-host-read
 * SG-GREP: syncguard: 2 races reported (2 early-host-read
 */
#include <cuda.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 2048u                     /* two pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

typedef void (*call_on_host_wait_fn)(void (*fn)(void *), void *arg);

static sigjmp_buf jb;
static volatile sig_atomic_t jumped;

static void on_usr1(int sig)
{
    (void)sig;
    jumped++;
    siglongjmp(jb, 1);
}

static void send_usr1(void *arg)
{
    (void)arg;
    raise(SIGUSR1);
}

static __attribute__((noinline)) unsigned read_early(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != NEW;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    call_on_host_wait_fn call_on_wait =
        (call_on_host_wait_fn)(void (*)(void))dlsym(RTLD_DEFAULT, "sgemu_call_on_host_wait");
    if (!call_on_wait) {
        printf("SKIP: needs the emulator's sgemu_call_on_host_wait\n");
        return 77;
    }
    sgt_init();
    signal(SIGUSR1, on_usr1);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);

    /* 1: the jump out of syncguard's wait */
    sgt_hold *hold = sgt_hold_stream_in_graph(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    call_on_wait(send_usr1, NULL);      /* first, while the copy is still held */
    unsigned first = ~0u;
    if (sigsetjmp(jb, 1) == 0)
        first = read_early(host);
    printf("first early read: %s\n", jumped ? "left by the program's siglongjmp" : "completed");
    sgt_release(hold);

    /* 2: a system call into the same buffer */
    int fd = sgt_temp_file("robust_siglongjmp_wait");
    unsigned char *content = sgt_malloc(BYTES);
    sgt_fill_file(fd, content, BYTES, 0x42);
    SGT_CHECK(cuStreamSynchronize(s));
    ssize_t r = read(fd, host, BYTES);
    printf("read(2) into the buffer: %zd of %zu\n", r, (size_t)BYTES);

    /* 3: a second race, reported */
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;
    hold = sgt_hold_stream_in_graph(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned second = read_early(host);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, WORDS, NEW);
    printf("second early read: %u words wrong; after synchronizing: %u\n", second, late);
    (void)first;
    close(fd);
    free(content);
    sgt_free_all(s, dev, host);
    return sgt_check_line(jumped == 1 && r == (ssize_t)BYTES && !second && !late);
}
