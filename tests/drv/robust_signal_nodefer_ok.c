/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_nodefer_ok: the program's SIGSEGV handler, installed with
 * SA_NODEFER after syncguard's, takes a nested fault.  The program touches
 * a PROT_NONE page of its own (P); its handler, before opening P, touches
 * a second page of its own (Q), which faults again inside the handler: with
 * SA_NODEFER the kernel delivers that nested fault to the same handler,
 * which opens Q and returns, and then the outer call opens P and returns.
 * syncguard must chain with the program's flags and mask: SIGSEGV not
 * blocked inside an SA_NODEFER handler (it used to be, and the nested fault
 * killed the process).  A guarded copy is in flight meanwhile, so that
 * syncguard's handler is really in the way.
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

static size_t pagesz;
static unsigned char *P, *Q;
static volatile int calls, depth_max, depth, unblocked_inside = 1;

static void handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    calls++;
    if (++depth > depth_max)
        depth_max = depth;
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    if (sigismember(&cur, SIGSEGV))
        unblocked_inside = 0;
    unsigned char *page = (unsigned char *)((uintptr_t)si->si_addr & ~(uintptr_t)(pagesz - 1));
    if (page == P)
        (void)*(volatile unsigned char *)Q; /* the nested fault */
    mprotect(page, pagesz, PROT_READ | PROT_WRITE);
    depth--;
}

int main(void)
{
    sgt_watchdog(60);
    pagesz = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(256, 0xc3);
    unsigned char *host = sgt_pinned_bytes(256, 0x11);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, 256, s));

    unsigned char *mine = mmap(NULL, 2 * pagesz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mine == MAP_FAILED)
        return 2;
    P = mine, Q = mine + pagesz;
    struct sigaction sa = sgt_siginfo_action(handler, SA_NODEFER);
    sigaction(SIGSEGV, &sa, NULL);
    P[0] = 7;                              /* faults; the handler faults on Q */

    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < 256; i++)
        wrong += host[i] != 0xc3;
    printf("handler calls %d, deepest nesting %d, SIGSEGV unblocked inside: %s; P[0] %d; %u "
           "copied bytes wrong\n", calls, depth_max, unblocked_inside ? "yes" : "no", P[0], wrong);
    return sgt_check_line(calls == 2 && depth_max == 2 && unblocked_inside && P[0] == 7 &&
                          wrong == 0);
}
