/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_nested_blocked: the program's SIGSEGV handler (no
 * SA_NODEFER) takes a fault of its own inside (a read of address 16).
 * Without syncguard the kernel kills the process there (a fault whose
 * signal is blocked), whatever the handler: syncguard keeps SIGSEGV
 * deliverable inside the program's handler for its own guards, and must
 * still honour the program's mask for faults that are not its own: the
 * process dies of SIGSEGV, the handler is not entered a second time.
 *
 * SG-EXPECT: silent
 * SG-EXIT: 139
 * SG-NO-CHECK
 * SG-NOGREP: ^entered twice
 */
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

static volatile int entries;

static void handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    if (++entries > 1) {
        static const char msg[] = "entered twice\n";
        write(1, msg, sizeof msg - 1);
        _exit(1);
    }
    /* Through a volatile pointer: the compiler may neither see the
     * constant address nor drop the read. */
    volatile int *volatile unmapped = (volatile int *)16; /* the null page is never mapped */
    (void)*unmapped; /* a fault inside the handler: SIGSEGV is blocked here */
}

int main(void)
{
    sgt_no_core_dumps();
    sgt_init();
    unsigned char *mine = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mine == MAP_FAILED)
        return 2;
    struct sigaction sa = sgt_siginfo_action(handler, 0);
    sigaction(SIGSEGV, &sa, NULL);
    fflush(stdout);
    mine[0] = 1;
    printf("not reached\n");
    return 1;
}
