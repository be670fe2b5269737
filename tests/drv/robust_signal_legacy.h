/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_signal_legacy_race and robust_signal_legacy_ok: a
 * SIGSEGV handler installed through each of the older interfaces glibc
 * keeps, sigset, sysv_signal, bsd_signal and ssignal.  glibc implements
 * them with its internal sigaction, not the exported one, so each would
 * replace syncguard's handler in the kernel unless syncguard wraps them
 * too.  With the handler installed:
 *   race: an early read of a copy in flight is syncguard's (reported,
 *         correct data; the program's handler is NOT called);
 *   ok:   a read of the neighbour bytes of a guarded page is syncguard's
 *         (no report, the host's value, the handler NOT called), and the
 *         program's own fault (a PROT_NONE page it mapped) IS the
 *         handler's, which siglongjmps out; each call returns the
 *         handler installed before it, as without syncguard.
 * The copies wait behind holds on their stream. */
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

typedef void (*handler_fn)(int);

/* Declared by <signal.h> only under some feature macros. */
extern handler_fn bsd_signal(int sig, handler_fn handler);
extern handler_fn sysv_signal(int sig, handler_fn handler);
extern handler_fn ssignal(int sig, handler_fn handler);
extern handler_fn sigset(int sig, handler_fn disp);

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u
#define NAPIS 4

static sigjmp_buf jb;
static volatile sig_atomic_t calls;

static void handler(int sig)
{
    (void)sig;
    calls++;
    siglongjmp(jb, 1);
}

static const char *const api_names[NAPIS] = { "sigset", "sysv_signal", "bsd_signal", "ssignal" };

static handler_fn install(int api, handler_fn h)
{
    switch (api) {
    case 0:
        return sigset(SIGSEGV, h);
    case 1:
        return sysv_signal(SIGSEGV, h);
    case 2:
        return bsd_signal(SIGSEGV, h);
    default:
        return ssignal(SIGSEGV, h);
    }
}

/* Reads h[0..n) under a jump point: the words not `want`, or -1 if the
 * program's handler was called. */
static long read_words(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    if (sigsetjmp(jb, 1) != 0)
        return -1;
    long wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

static int legacy_main(int correct)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    volatile char *none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (none == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    handler_fn before = SIG_DFL;
    for (int api = 0; api < NAPIS; api++) {
        int calls_before = calls;
        handler_fn prev = install(api, handler);
        SGT_SOFT_EXPECT(prev == before);
        before = handler;
        for (unsigned i = 0; i < WORDS; i++)
            host[i] = OLD;
        sgt_hold *hold = sgt_hold_stream(s);
        /* race: the whole buffer; ok: its first 64 words, read from 512 on */
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, correct ? 256 : BYTES, s));
        sgt_release_when_host_waits(hold);
        long wrong = correct ? read_words(host + 512, 8, OLD) : read_words(host, WORDS, NEW);
        SGT_CHECK(cuStreamSynchronize(s));
        int own_fault = -1;
        if (correct) {
            own_fault = 0;
            if (sigsetjmp(jb, 1) == 0)
                (void)none[17];
            else
                own_fault = 1;
        }
        printf("%s: %s read: %ld words wrong, program's handler called %d times%s\n",
               api_names[api], correct ? "neighbour" : "early", wrong, (int)(calls - calls_before),
               own_fault < 0 ? "" : own_fault ? " (for its own fault)" : " (NOT for its own fault)");
        SGT_SOFT_EXPECT(wrong == 0);
        SGT_SOFT_EXPECT(calls == calls_before + (correct ? 1 : 0));
        SGT_SOFT_EXPECT(own_fault != 0);
        if (api == 1 && correct)        /* sysv_signal: reset to SIG_DFL by the call */
            before = SIG_DFL;
    }
    sgt_free_all(s, dev, host);
    return sgt_soft_check_line();
}
