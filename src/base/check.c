/* SPDX-License-Identifier: Apache-2.0 */
/* A failed SG_CHECK (check.h). Only system calls, made directly (not
 * through syncguard's own write() and sigaction() shims), and formatting on
 * the stack: it runs wherever the check did, the fault handler included. */
#include "config.h"

#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/check.h"

struct line {
    char buf[512];
    size_t n;
};

static void put_str(struct line *l, const char *s)
{
    while (*s && l->n < sizeof l->buf - 1)
        l->buf[l->n++] = *s++;
}

static void put_uint(struct line *l, unsigned long v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > 0 && l->n < sizeof l->buf - 1)
        l->buf[l->n++] = digits[--n];
}

static void write_stderr(const char *buf, size_t len)
{
    while (len > 0) {
        long w = syscall(SYS_write, 2, buf, len);
        if (w <= 0)
            return; /* EINTR too: a signal handler interrupting a dying process gets no retry */
        buf += w, len -= (size_t)w;
    }
}

/* The kernel's struct sigaction (x86-64 and aarch64 alike). */
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long mask;
};

static __attribute__((noreturn)) void die(void)
{
    struct kernel_sigaction dfl = { SIG_DFL, 0, NULL, 0 };
    unsigned long abrt = 1ul << (SIGABRT - 1);
    syscall(SYS_rt_sigaction, SIGABRT, &dfl, NULL, sizeof dfl.mask);
    syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &abrt, NULL, sizeof abrt);
    syscall(SYS_tgkill, syscall(SYS_getpid), syscall(SYS_gettid), SIGABRT);
    for (;;) /* not reached: SIGABRT's default action ends the process */
        syscall(SYS_exit_group, 128 + SIGABRT);
}

void sg_check_failed(const char *file, int line, const char *cond)
{
    struct line l = { .n = 0 };
    put_str(&l, "==");
    put_uint(&l, (unsigned long)syscall(SYS_getpid));
    put_str(&l, "==syncguard: CHECK failed: ");
    put_str(&l, file);
    put_str(&l, ":");
    put_uint(&l, (unsigned long)line);
    put_str(&l, ": ");
    put_str(&l, cond);
    l.buf[l.n++] = '\n';
    write_stderr(l.buf, l.n);
    die();
}
