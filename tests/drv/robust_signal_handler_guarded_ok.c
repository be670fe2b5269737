/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_handler_guarded_ok: the program's own SIGSEGV handler (no
 * SA_NODEFER: the kernel runs it with SIGSEGV blocked) touches a guarded
 * page.  The program faults on a PROT_NONE page of its own; syncguard
 * passes the fault to the program's handler, which reads a neighbour byte
 * of a copy in flight (on the copy's page, not one of its bytes), then opens its page and returns.  Under syncguard
 * that read faults inside the program's handler, where SIGSEGV is blocked
 * as the program asked: it used to kill the process.  It must be stepped
 * like any neighbour access: no report, right data.  Inside the handler the
 * program still sees SIGSEGV blocked (sigprocmask), as without syncguard.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3

static size_t pagesz;
static volatile unsigned char *touch;
static volatile unsigned char seen;
static volatile int calls, blocked_inside;

static void handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    calls++;
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    blocked_inside = sigismember(&cur, SIGSEGV);
    seen = *touch;
    uintptr_t page = (uintptr_t)si->si_addr & ~(uintptr_t)(pagesz - 1);
    mprotect((void *)page, pagesz, PROT_READ | PROT_WRITE);
}

int main(void)
{
    sgt_watchdog(60);
    pagesz = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(2 * pagesz, OLD);
    unsigned char *host = (unsigned char *)(((uintptr_t)raw + pagesz - 1) & ~(uintptr_t)(pagesz - 1));
    touch = host + 2048;
    unsigned char *mine = mmap(NULL, pagesz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mine == MAP_FAILED)
        return 2;
    struct sigaction sa = sgt_siginfo_action(handler, 0);
    sigaction(SIGSEGV, &sa, NULL);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    sgt_release_when_host_waits(hold);
    mine[0] = 7;                           /* the program's own fault */
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += host[i] != NEW;
    printf("handler calls %d, SIGSEGV blocked inside: %s, it read 0x%02x; mine[0] %d; %u copied "
           "bytes wrong\n", calls, blocked_inside ? "yes" : "no", seen, mine[0], wrong);
    return sgt_check_line(calls == 1 && blocked_inside && seen == OLD && mine[0] == 7 &&
                          wrong == 0);
}
