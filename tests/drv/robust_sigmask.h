/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_sigmask_blocked_ok and robust_sigmask_blocked_race: a
 * thread that blocks signals before touching pinned memory, as worker
 * threads do (block all but the fault signals, or everything).  The kernel
 * cannot deliver a blocked SIGSEGV or SIGTRAP that an instruction raises:
 * it kills the process instead.  So syncguard keeps both deliverable while
 * answering the program's queries with the mask the program asked for.
 *   ok:   a neighbour read of a guarded page (syncguard opens the page and
 *         single-steps the read: a SIGSEGV, then a SIGTRAP), once with all
 *         but SIGSEGV, SIGBUS, SIGFPE and SIGILL blocked, once with every
 *         signal blocked, through pthread_sigmask and sigprocmask: no
 *         report, the host's value;
 *   race: the same masks, an early read of the copy's bytes: reported,
 *         correct data.
 * Both: the program's queries (pthread_sigmask and sigprocmask with a NULL
 * set) return the mask it set, SIGSEGV and SIGTRAP included, and a signal
 * it blocked (SIGUSR1, sent with raise) stays pending until it unblocks
 * it.  The copies wait behind holds on their stream. */
#include <cuda.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u                     /* one page */
#define BYTES (WORDS * sizeof(uint32_t))
#define COPIED 64u                      /* ok: the copy covers words [0, 64) */
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

static volatile sig_atomic_t usr1_calls;

static void on_usr1(int sig)
{
    (void)sig;
    usr1_calls++;
}

/* Sets the mask through pthread_sigmask (api 0) or sigprocmask (api 1). */
static void set_mask(int api, int how, const sigset_t *set, sigset_t *old)
{
    if (api == 0)
        pthread_sigmask(how, set, old);
    else
        sigprocmask(how, set, old);
}

/* Whether the program's view of the mask is exactly `want` for the
 * signals that matter here. */
static int mask_is(int api, const sigset_t *want)
{
    sigset_t cur;
    sigemptyset(&cur);
    set_mask(api, SIG_BLOCK, NULL, &cur);
    static const int sigs[] = { SIGSEGV, SIGTRAP, SIGUSR1, SIGBUS, SIGINT };
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigismember(&cur, sigs[i]) != sigismember(want, sigs[i])) {
            printf("mask: signal %d is %sblocked, expected the opposite\n", sigs[i],
                   sigismember(&cur, sigs[i]) ? "" : "not ");
            return 0;
        }
    return 1;
}

static int sigmask_main(int racy)
{
    sgt_watchdog(60);
    sgt_init();
    signal(SIGUSR1, on_usr1);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    int ok = 1;
    for (int round = 0; round < 4; round++) {
        int api = round & 1, everything = round >> 1;
        sigset_t mask, before;
        sigfillset(&mask);
        if (!everything) {
            sigdelset(&mask, SIGSEGV), sigdelset(&mask, SIGBUS);
            sigdelset(&mask, SIGFPE), sigdelset(&mask, SIGILL);
        }
        for (unsigned i = 0; i < WORDS; i++)
            host[i] = OLD;
        sgt_hold *hold = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, racy ? BYTES : COPIED * sizeof(uint32_t), s));
        sgt_release_when_host_waits(hold);

        set_mask(api, SIG_SETMASK, &mask, &before);
        int view_ok = mask_is(api, &mask);
        raise(SIGUSR1);                 /* blocked: stays pending */
        int usr1_held = usr1_calls == round;
        /* The access under test. */
        unsigned wrong = racy ? SGT_COUNT_WRONG(host, WORDS, NEW)
                              : SGT_COUNT_WRONG(host + 512, 4, OLD);
        view_ok &= mask_is(api, &mask);
        set_mask(api, SIG_SETMASK, &before, NULL);
        int usr1_delivered = usr1_calls == round + 1;
        view_ok &= mask_is(api, &before);

        SGT_CHECK(cuStreamSynchronize(s));
        printf("%s, %s blocked: %s read %u words wrong; the program's view of the mask %s; "
               "SIGUSR1 %s while blocked, %s once unblocked\n",
               api ? "sigprocmask" : "pthread_sigmask",
               everything ? "every signal" : "all but the fault signals",
               racy ? "an early" : "a neighbour", wrong, view_ok ? "right" : "WRONG",
               usr1_held ? "held" : "NOT held", usr1_delivered ? "delivered" : "NOT delivered");
        ok &= !wrong && view_ok && usr1_held && usr1_delivered;
    }
    sgt_free_all(s, dev, host);
    return sgt_check_line(ok);
}
