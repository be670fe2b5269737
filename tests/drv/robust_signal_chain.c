/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_chain: a program that installs its own SIGSEGV handlers
 * after start-up (syncguard's handler is already in place) sees exactly
 * what it would see without syncguard, and syncguard keeps working.
 *   1. sigaction(SIGSEGV, h1 with SA_SIGINFO) returns SIG_DFL as the old
 *      action, the program's view.
 *   2. An early read of a guarded copy: syncguard's (report, correct data);
 *      h1 is NOT called.
 *   3. A read of a PROT_NONE page the program mapped itself, a write to a
 *      PROT_READ page of its own and a read of address 16: h1 IS
 *      called each time, with the original siginfo (signal SIGSEGV, si_addr
 *      the address touched, si_code SEGV_ACCERR / SEGV_ACCERR / SEGV_MAPERR),
 *      and siglongjmps out.
 *   4. sigaction(SIGSEGV, NULL, &old) returns h1 (with SA_SIGINFO).
 *   5. signal(SIGSEGV, h2) returns h1; a PROT_NONE read then calls h2, not
 *      h1; sigaction(SIGSEGV, NULL, &old) returns h2.
 *   6. A second early read (another site): reported, correct data, neither
 *      handler called.
 *   7. signal(SIGSEGV, SIG_DFL) returns h2; SIGSEGV is not left blocked.
 *   8. A handler h3 (SA_SIGINFO, sa_mask {SIGUSR1}) that mprotects the
 *      faulting page read-write and RETURNS (a GC's write barrier): the
 *      write then completes; inside h3 SIGSEGV and SIGUSR1 were blocked.
 *   9. h1 installed with SA_RESETHAND: called once, after which
 *      sigaction(SIGSEGV, NULL, &old) says SIG_DFL.
 *
 * The copies wait behind holds on their stream (released when the host
 * first blocks in the driver: syncguard's wait).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in race_one
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in race_two
 * SG-GREP: syncguard: 2 races reported (2 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

static sigjmp_buf jb;
static volatile sig_atomic_t h1_calls, h2_calls, h1_sig, h1_code;
static void *volatile h1_addr;

static void h1(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    h1_calls++;
    h1_sig = sig;
    h1_code = si->si_code;
    h1_addr = si->si_addr;
    siglongjmp(jb, 1);
}

static volatile sig_atomic_t h3_calls, h3_masked;
static size_t pagesz;

static void h3(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    h3_masked = sigismember(&cur, SIGSEGV) && sigismember(&cur, SIGUSR1);
    h3_calls++;
    uintptr_t pg = (uintptr_t)si->si_addr & ~(uintptr_t)(pagesz - 1);
    mprotect((void *)pg, pagesz, PROT_READ | PROT_WRITE);
}

static void h2(int sig)
{
    (void)sig;
    h2_calls++;
    siglongjmp(jb, 2);
}

static __attribute__((noinline)) unsigned race_one(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != NEW;
    return wrong;
}

static __attribute__((noinline)) unsigned race_two(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[WORDS - 1 - i] != NEW;
    return wrong;
}

/* An early read of a fresh copy into h; returns the words read wrong. */
static unsigned race(CUstream s, CUdeviceptr dev, uint32_t *h, int which)
{
    for (unsigned i = 0; i < WORDS; i++)
        h[i] = OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = which == 1 ? race_one(h) : race_two(h);
    SGT_CHECK(cuStreamSynchronize(s));
    return wrong;
}

/* Touches p (read or write) expecting a fault the program's handler
 * siglongjmps out of; returns sigsetjmp's second value (0: no fault). */
static int touch(volatile char *p, int write)
{
    int r = sigsetjmp(jb, 1);
    if (r == 0) {
        if (write)
            *p = 1;
        else
            (void)*p;
    }
    return r;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    pagesz = page;
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    char *none = mmap(NULL, 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (none == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    char *ro = none + page;
    char *volatile gone = (char *)16;   /* the null page is never mapped */
    if (mprotect(ro, page, PROT_READ) != 0) {
        perror("mprotect");
        return 2;
    }

    /* 1 */
    struct sigaction sa = sgt_siginfo_action(h1, 0), old;
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, &sa, &old) == 0);
    SGT_SOFT_EXPECT(old.sa_handler == SIG_DFL);

    /* 2 */
    SGT_SOFT_EXPECT(race(s, dev, host, 1) == 0);
    SGT_SOFT_EXPECT(h1_calls == 0);

    /* 3 */
    struct { char *addr; int write, code; const char *what; } faults[] = {
        { none + 123, 0, SEGV_ACCERR, "read of a PROT_NONE page" },
        { ro + 77, 1, SEGV_ACCERR, "write to a PROT_READ page" },
        { gone, 0, SEGV_MAPERR, "read of an unmapped page (address 16)" },
    };
    for (unsigned i = 0; i < 3; i++) {
        int before = h1_calls;
        h1_sig = 0, h1_code = 0, h1_addr = NULL;
        int r = touch(faults[i].addr, faults[i].write);
        printf("%s: handler h1 %s, signal %d, si_code %d (want %d), si_addr %s\n", faults[i].what,
               h1_calls == before + 1 ? "called" : "NOT called", (int)h1_sig, (int)h1_code,
               faults[i].code, h1_addr == faults[i].addr ? "right" : "WRONG");
        SGT_SOFT_EXPECT(r == 1);
        SGT_SOFT_EXPECT(h1_calls == before + 1);
        SGT_SOFT_EXPECT(h1_sig == SIGSEGV);
        SGT_SOFT_EXPECT(h1_code == faults[i].code);
        SGT_SOFT_EXPECT(h1_addr == faults[i].addr);
    }

    /* 4 */
    memset(&old, 0, sizeof old);
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, NULL, &old) == 0);
    SGT_SOFT_EXPECT((void *)old.sa_sigaction == (void *)h1);
    SGT_SOFT_EXPECT(old.sa_flags & SA_SIGINFO);

    /* 5 */
    void (*prev)(int) = signal(SIGSEGV, h2);
    SGT_SOFT_EXPECT((void *)prev == (void *)h1);
    int h1_before = h1_calls;
    SGT_SOFT_EXPECT(touch(none + 9, 0) == 2);
    SGT_SOFT_EXPECT(h2_calls == 1);
    SGT_SOFT_EXPECT(h1_calls == h1_before);
    memset(&old, 0, sizeof old);
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, NULL, &old) == 0);
    SGT_SOFT_EXPECT(old.sa_handler == h2);

    /* 6 */
    SGT_SOFT_EXPECT(race(s, dev, host, 2) == 0);
    SGT_SOFT_EXPECT(h2_calls == 1);
    SGT_SOFT_EXPECT(h1_calls == h1_before);

    /* 7 */
    SGT_SOFT_EXPECT(signal(SIGSEGV, SIG_DFL) == h2);
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    SGT_SOFT_EXPECT(!sigismember(&cur, SIGSEGV));

    /* 8 */
    sa = sgt_siginfo_action(h3, 0);
    sigaddset(&sa.sa_mask, SIGUSR1);
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, &sa, NULL) == 0);
    ((volatile char *)none)[42] = 42;   /* faults once; h3 opens the page */
    SGT_SOFT_EXPECT(h3_calls == 1);
    SGT_SOFT_EXPECT(h3_masked);
    SGT_SOFT_EXPECT(((volatile char *)none)[42] == 42);
    sigprocmask(SIG_BLOCK, NULL, &cur);
    SGT_SOFT_EXPECT(!sigismember(&cur, SIGSEGV) && !sigismember(&cur, SIGUSR1));

    /* 9 */
    sa = sgt_siginfo_action(h1, SA_RESETHAND);
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, &sa, NULL) == 0);
    int h1_now = h1_calls;
    SGT_SOFT_EXPECT(touch(ro + 1, 1) == 1);
    SGT_SOFT_EXPECT(h1_calls == h1_now + 1);
    memset(&old, 0, sizeof old);
    SGT_SOFT_EXPECT(sigaction(SIGSEGV, NULL, &old) == 0);
    SGT_SOFT_EXPECT(old.sa_handler == SIG_DFL);

    printf("handler calls: h1 %d, h2 %d, h3 %d\n", (int)h1_calls, (int)h2_calls, (int)h3_calls);
    sgt_free_all(s, dev, host);
    return sgt_soft_check_line();
}
