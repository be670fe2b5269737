/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_sigtrap: syncguard single-steps neighbour accesses of a
 * guarded page with the trap flag, so it keeps a SIGTRAP handler first; a
 * program that installs its own SIGTRAP handler after start-up must see
 * exactly its own traps.
 *   1. sigaction(SIGTRAP, th) returns SIG_DFL as the old action.
 *   2. Neighbour reads and writes of a page with a copy in flight (bytes
 *      that are not the copy's, single-stepped by syncguard): th is NOT
 *      called, no report, the values are the host's.
 *   3. raise(SIGTRAP): th IS called (si_code SI_TKILL); an int3 (aarch64:
 *      brk #0): th IS called (si_code SI_KERNEL; aarch64: TRAP_BRKPT, th
 *      moves the PC past it), and execution continues after it.
 *   4. sigaction(SIGTRAP, NULL, &old) returns th.
 *   5. After cuStreamSynchronize the copy's bytes are the copied data.
 * The copy waits behind a hold on its stream, released when the host first
 * blocks in the driver.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define ACCESSES 40u                    /* few: every one is single-stepped */
#define OLD 0x11
#define NEW 0xc3

/* A breakpoint instruction, and the si_code of its SIGTRAP. */
#if defined(__aarch64__)
#ifndef TRAP_BRKPT
#define TRAP_BRKPT 1 /* POSIX's value; glibc declares it for X/Open only */
#endif
#define BREAKPOINT "brk #0"
#define BREAKPOINT_CODE TRAP_BRKPT
#else
#define BREAKPOINT "int3"
#define BREAKPOINT_CODE SI_KERNEL
#endif

static volatile sig_atomic_t th_calls, th_code;

static void th(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    th_calls++;
    th_code = si->si_code;
#if defined(__aarch64__)
    if (si->si_code == TRAP_BRKPT) /* the PC stays at a BRK: go on after it */
        ((ucontext_t *)uc)->uc_mcontext.pc += 4;
#endif
}


int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *host = sgt_pinned_bytes(page, OLD);

    /* 1 */
    struct sigaction sa = sgt_siginfo_action(th, 0), old;
    SGT_SOFT_EXPECT(sigaction(SIGTRAP, &sa, &old) == 0);
    SGT_SOFT_EXPECT(old.sa_handler == SIG_DFL);

    /* 2 */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    sgt_release_when_host_waits(hold);
    SGT_SOFT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    volatile unsigned char *v = host;
    unsigned wrong = 0;
    for (unsigned i = 0; i < ACCESSES; i++) {
        size_t at = COPIED + 64 * i;
        wrong += v[at] != OLD;
        v[at + 1] = (unsigned char)i;
    }
    SGT_SOFT_EXPECT(wrong == 0);
    SGT_SOFT_EXPECT(th_calls == 0);
    printf("neighbour accesses during the copy: %u wrong, SIGTRAP handler called %d times\n",
           wrong, (int)th_calls);

    /* 3 */
    raise(SIGTRAP);
    SGT_SOFT_EXPECT(th_calls == 1);
    SGT_SOFT_EXPECT(th_code == SI_TKILL);
    __asm__ volatile(BREAKPOINT);
    SGT_SOFT_EXPECT(th_calls == 2);
    SGT_SOFT_EXPECT(th_code == BREAKPOINT_CODE);
    printf("raise and int3: SIGTRAP handler called %d times (last si_code %d)\n", (int)th_calls,
           (int)th_code);

    /* 4 */
    memset(&old, 0, sizeof old);
    SGT_SOFT_EXPECT(sigaction(SIGTRAP, NULL, &old) == 0);
    SGT_SOFT_EXPECT((void *)old.sa_sigaction == (void *)th);

    /* 5 */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned bad = 0;
    for (unsigned i = 0; i < COPIED; i++)
        bad += host[i] != NEW;
    for (unsigned i = 0; i < ACCESSES; i++)
        bad += host[COPIED + 64 * i + 1] != (unsigned char)i;
    SGT_SOFT_EXPECT(bad == 0);
    sgt_free_all(s, dev, host);
    return sgt_soft_check_line();
}
