/* SPDX-License-Identifier: Apache-2.0 */
/* The log sink. Everything syncguard prints goes through sg_log_write, a
 * plain write(2) loop, so that the fault handler can use it too. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"

static int log_fd = -1;
static sg_lock_t open_lock = SG_LOCK_INIT;

size_t sg_fmt_u64(char *out, unsigned long long v, int base)
{
    char tmp[24];
    size_t n = 0;
    do {
        int d = (int)(v % (unsigned)base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= (unsigned)base;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

void sg_line_str(struct sg_line *l, const char *s)
{
    size_t len = strlen(s);
    if (len > sizeof l->buf - l->n)
        len = sizeof l->buf - l->n;
    memcpy(l->buf + l->n, s, len);
    l->n += len;
}

void sg_line_num(struct sg_line *l, unsigned long long v, int base)
{
    char num[24];
    sg_fmt_u64(num, v, base);
    sg_line_str(l, num);
}

void sg_line_begin(struct sg_line *l)
{
    l->n = 0;
    sg_line_str(l, "==");
    sg_line_num(l, (unsigned long long)getpid(), 10);
    sg_line_str(l, "==");
}

void sg_line_write(const struct sg_line *l)
{
    sg_log_write(l->buf, l->n);
}

static const char *rank_from_env(void)
{
    static const char *const vars[] = { "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                        "SLURM_PROCID" };
    for (size_t i = 0; i < SG_ARRAY_SIZE(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return v;
    }
    return "0";
}

int sg_log_expand_path(const char *prefix, char *out, size_t outlen)
{
    size_t n = 0;
    int had_pid = 0;
    char num[24];
    for (const char *p = prefix; *p; p++) {
        const char *piece = NULL;
        char one[2] = { *p, 0 };
        if (p[0] == '%' && p[1] == 'p') {
            sg_fmt_u64(num, (unsigned long long)getpid(), 10);
            piece = num, had_pid = 1, p++;
        } else if (p[0] == '%' && p[1] == 'r') {
            piece = rank_from_env(), p++;
        } else {
            piece = one;
        }
        size_t len = strlen(piece);
        if (n + len + 1 > outlen)
            return -1;
        memcpy(out + n, piece, len), n += len;
    }
    if (!had_pid) {
        sg_fmt_u64(num, (unsigned long long)getpid(), 10);
        if (n + 1 + strlen(num) + 1 > outlen)
            return -1;
        out[n++] = '.';
        memcpy(out + n, num, strlen(num) + 1);
        n += strlen(num);
    }
    out[n] = '\0';
    return 0;
}

int sg_log_create_file(const char *path)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, flags, 0644);
    char alt[4096];
    for (int i = 1; fd < 0 && errno == EEXIST && i < 100; i++) {
        snprintf(alt, sizeof alt, "%s.%d", path, i);
        fd = open(alt, flags, 0644);
    }
    return fd;
}

/* Opens the log named by log_path; falls back to stderr, saying why. */
static int open_log(void)
{
    const char *lp = sg_opt.log_path ? sg_opt.log_path : "stderr";
    if (strcmp(lp, "stderr") == 0)
        return 2;
    if (strcmp(lp, "stdout") == 0)
        return 1;
    char path[4096];
    int fd = -1;
    if (sg_log_expand_path(lp, path, sizeof path) == 0)
        fd = sg_log_create_file(path);
    if (fd < 0) {
        char msg[4400];
        int len = snprintf(msg, sizeof msg,
                           "==%d==ERROR: syncguard: cannot create log file from log_path=%s: %s; "
                           "logging to stderr\n",
                           (int)getpid(), lp, strerror(errno));
        if (len > 0 && write(2, msg, (size_t)len) < 0)
            return 2;
        return 2;
    }
    return fd;
}

static int current_fd(void)
{
    int fd = __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE);
    if (SG_LIKELY(fd >= 0))
        return fd;
    sg_lock(&open_lock);
    if (log_fd < 0)
        __atomic_store_n(&log_fd, open_log(), __ATOMIC_RELEASE);
    fd = log_fd;
    sg_unlock(&open_lock);
    return fd;
}

void sg_log_after_fork_child(void)
{
    log_fd = -1;
    sg_lock_reset(&open_lock);
}

void sg_log_write(const char *buf, size_t len)
{
    sg_write_all(current_fd(), buf, len);
}

void sg_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        /* The system call itself: syncguard's own write() shim would take
         * the model lock, which the caller may hold. */
        ssize_t w = syscall(SYS_write, fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        buf += w, len -= (size_t)w;
    }
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
    char buf[2048];
    int n = snprintf(buf, sizeof buf, "==%d==%s: syncguard: ", (int)getpid(), prefix);
    if (n < 0)
        return;
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    if (m < 0)
        return;
    size_t len = (size_t)n + ((size_t)m < sizeof buf - (size_t)n - 1 ? (size_t)m : sizeof buf - (size_t)n - 2);
    buf[len++] = '\n';
    sg_log_write(buf, len);
}

void sg_log_printf(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        sg_log_write(buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void sg_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("ERROR", fmt, ap);
    va_end(ap);
}

void sg_log_warn_once(int *said, const char *fmt, ...)
{
    if (__atomic_exchange_n(said, 1, __ATOMIC_RELAXED))
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog("WARNING", fmt, ap);
    va_end(ap);
}
