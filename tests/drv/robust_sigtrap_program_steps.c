/* SPDX-License-Identifier: Apache-2.0 */
/* robust_sigtrap_program_steps: a program that single-steps its own code
 * (it sets the trap flag and counts its SIGTRAPs, as a debugger-like tool
 * or a tracing runtime does) over reads of neighbour bytes of a guarded
 * page, which syncguard single-steps too.  The program must get exactly
 * the traps it gets over the same reads of a page nobody guards: none
 * taken for syncguard's step, and its own stepping not switched off by it.
 * No report; the values read are the host's.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sgt_robust.h"
#include "sgt_x86_only.h"

#if !defined(__x86_64__)
SGT_X86_ONLY("the trap flag (aarch64 user space cannot single-step itself)")
#else

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3

static volatile long traps;

static void count_trap(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    traps++;
}

/* Reads 8 bytes 64 apart from p with the trap flag set; returns the traps
 * the program took, and their sum in *sum. */
static __attribute__((noinline)) long stepped_reads(const volatile unsigned char *p, unsigned *sum)
{
    unsigned s = 0;
    traps = 0;
    __asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
    for (unsigned i = 0; i < 8; i++)
        s += p[i * 64];
    __asm__ volatile("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
    *sum = s;
    return traps;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *host = sgt_pinned_bytes(2 * page, OLD);
    struct sigaction sa = sgt_siginfo_action(count_trap, 0);
    sigaction(SIGTRAP, &sa, NULL);

    unsigned sum_free, sum_guarded;
    long free_traps = stepped_reads(host + page + 1024, &sum_free); /* nobody guards page 1 */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));    /* guards page 0 */
    sgt_release_when_host_waits(hold);
    long guarded_traps = stepped_reads(host + 1024, &sum_guarded);
    SGT_CHECK(cuStreamSynchronize(s));
    printf("the program's traps: %ld over an unguarded page, %ld over a guarded one; sums %u "
           "and %u (want %u)\n", free_traps, guarded_traps, sum_free, sum_guarded, 8u * OLD);
    sgt_free_all(s, dev, host);
    return sgt_check_line(free_traps > 8 && guarded_traps == free_traps &&
                          sum_free == 8u * OLD && sum_guarded == 8u * OLD);
}

#endif
