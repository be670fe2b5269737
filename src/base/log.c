/* SPDX-License-Identifier: Apache-2.0 */
/* The log sink. Everything syncguard prints goes through sg_log_write, a
 * plain write(2) loop, so that the fault handler can use it too. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"

static int log_fd = -1;
static sg_lock_t open_lock = SG_LOCK_INIT;

/* The variable %r takes the rank from, and its value; "0" from no variable
 * when none is set. */
static const char *rank_from_env(const char **var)
{
    static const char *const vars[] = { "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                        "SLURM_PROCID" };
    for (size_t i = 0; i < SG_ARRAY_SIZE(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            *var = vars[i];
            return v;
        }
    }
    *var = NULL;
    return "0";
}

/* A rank is a number: the environment is the launcher's, or whoever's, and
 * pasting it into a path as it is would let RANK=../../x name any file. */
static int is_rank(const char *v)
{
    size_t n = strspn(v, "0123456789");
    return n > 0 && n <= 10 && v[n] == '\0';
}

int sg_log_expand_path(const char *prefix, char *out, size_t outlen)
{
    size_t n = 0;
    int had_pid = 0;
    char num[24];
    for (const char *p = prefix; *p; p++) {
        const char *piece = NULL, *var;
        char one[2] = { *p, 0 };
        if (p[0] == '%' && p[1] == 'p') {
            sg_fmt_u64(num, (unsigned long long)getpid(), 10);
            piece = num, had_pid = 1, p++;
        } else if (p[0] == '%' && p[1] == 'r') {
            piece = rank_from_env(&var), p++;
            if (!is_rank(piece))
                return errno = EINVAL, -1;
        } else {
            piece = one;
        }
        size_t len = strlen(piece);
        if (n + len + 1 > outlen)
            return errno = ENAMETOOLONG, -1;
        memcpy(out + n, piece, len), n += len;
    }
    if (!had_pid) {
        sg_fmt_u64(num, (unsigned long long)getpid(), 10);
        if (n + 1 + strlen(num) + 1 > outlen)
            return errno = ENAMETOOLONG, -1;
        out[n++] = '.';
        memcpy(out + n, num, strlen(num) + 1);
        n += strlen(num);
    }
    out[n] = '\0';
    return 0;
}

void sg_log_path_problem(int err, char *out, size_t len)
{
    const char *var;
    const char *rank = rank_from_env(&var);
    if (err == EINVAL && var)
        snprintf(out, len, "%%r: %s='%.64s%s' is not a rank number", var, rank,
                 strlen(rank) > 64 ? "..." : "");
    else
        snprintf(out, len, "%s", strerror(err));
}

/* The log file, when log_path names one. */
static struct sg_own_file log_file;

static int create_file_named(const char *path, char *created, size_t len)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, flags, 0644);
    snprintf(created, len, "%s", path);
    for (int i = 1; fd < 0 && errno == EEXIST && i < 100; i++) {
        snprintf(created, len, "%s.%d", path, i);
        fd = open(created, flags, 0644);
    }
    return fd;
}

/* Moves fd out of the way of the program's low numbers (which programs
 * close and reuse freely), and remembers what file it is. */
static int keep_fd(struct sg_own_file *f, int fd)
{
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 512);
    if (high >= 0) {
        close(fd);
        fd = high;
    }
    struct stat st;
    if (fstat(fd, &st) == 0)
        f->dev = st.st_dev, f->ino = st.st_ino;
    return fd;
}

int sg_own_file_create(struct sg_own_file *f, const char *path)
{
    int fd = create_file_named(path, f->path, sizeof f->path);
    if (fd < 0) {
        f->path[0] = '\0';
        return -1;
    }
    return keep_fd(f, fd);
}

int sg_own_file_is(const struct sg_own_file *f, int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

int sg_own_file_reopen(struct sg_own_file *f)
{
    int fd = open(f->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    return fd < 0 ? -1 : keep_fd(f, fd);
}

/* "cannot create log file ...", on stderr: one line however long log_path
 * is (the prefix is shown cut), and the reason for the failure just seen. */
static void say_cannot_create(const char *lp, int err)
{
    char why[160];
    sg_log_path_problem(err, why, sizeof why);
    sg_log_stderr(SG_LOG_ERROR,
                  "cannot create log file from log_path=%.256s%s: %s; logging to stderr\n", lp,
                  strlen(lp) > 256 ? "..." : "", why);
}

/* Opens the log named by log_path; falls back to stderr, saying why. */
SG_REQUIRES(open_lock) static int open_log(void)
{
    const char *lp = sg_opt.log_path ? sg_opt.log_path : "stderr";
    if (strcmp(lp, "stderr") == 0)
        return 2;
    if (strcmp(lp, "stdout") == 0)
        return 1;
    char path[4096];
    int fd = -1;
    if (sg_log_expand_path(lp, path, sizeof path) == 0)
        fd = sg_own_file_create(&log_file, path);
    if (fd < 0) {
        say_cannot_create(lp, errno);
        return 2;
    }
    return fd;
}

/* Whether fd is still the log syncguard opened; a log on stderr or stdout
 * is written as it is, whatever the program put there. Async-signal-safe. */
static int still_the_log(int fd)
{
    return fd <= 2 || sg_own_file_is(&log_file, fd);
}

/* The log file opened again; stderr if that fails. */
SG_REQUIRES(open_lock) static int reopen_log(void)
{
    int fd = sg_own_file_reopen(&log_file);
    return fd < 0 ? 2 : fd;
}

/* The lock only to open: the fault handler writes here too, and may have
 * interrupted a thread that is writing. */
static int current_fd(void)
{
    int fd = __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE);
    if (SG_LIKELY(fd >= 0) && still_the_log(fd))
        return fd;
    sg_lock(&open_lock);
    if (log_fd < 0)
        __atomic_store_n(&log_fd, open_log(), __ATOMIC_RELEASE);
    else if (!still_the_log(log_fd))
        __atomic_store_n(&log_fd, reopen_log(), __ATOMIC_RELEASE);
    fd = log_fd;
    sg_unlock(&open_lock);
    return fd;
}

void sg_log_after_fork_child(void)
{
    log_fd = -1;
    log_file.path[0] = '\0';
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

/* ---- the logging idiom ---- */

size_t sg_log_prefix(char *out, size_t len, enum sg_log_kind kind)
{
    static const char *const label[] = { "", "WARNING: ", "ERROR: " };
    size_t n = sg_format(out, len, "==%ld==%ssyncguard: ", (long)getpid(), label[kind]);
    return n < len ? n : len ? len - 1 : 0;
}

/* One line: the prefix of the kind (none: -1), then fmt, in one write to
 * fd (-1: the log). */
static void vsay(int fd, int kind, const char *fmt, va_list ap)
{
    char buf[4096];
    size_t n = kind < 0 ? 0 : sg_log_prefix(buf, sizeof buf, (enum sg_log_kind)kind);
    size_t m = sg_vformat(buf + n, sizeof buf - n, fmt, ap);
    if (m >= sizeof buf - n) {
        n = sizeof buf - 1; /* cut, and still a line */
        buf[n - 1] = '\n';
    } else {
        n += m;
    }
    if (n == 0)
        return;
    if (fd < 0)
        sg_log_write(buf, n);
    else
        sg_write_all(fd, buf, n);
}

#define SAY(fd, kind, fmt)            \
    do {                              \
        va_list ap;                   \
        va_start(ap, fmt);            \
        vsay(fd, kind, fmt, ap);      \
        va_end(ap);                   \
    } while (0)

void sg_log(const char *fmt, ...)
{
    SAY(-1, SG_LOG_NOTE, fmt);
}

void sg_log_warning(const char *fmt, ...)
{
    SAY(-1, SG_LOG_WARNING, fmt);
}

void sg_log_error(const char *fmt, ...)
{
    SAY(-1, SG_LOG_ERROR, fmt);
}

void sg_log_stderr(enum sg_log_kind kind, const char *fmt, ...)
{
    SAY(2, (int)kind, fmt);
}

void sg_log_printf(const char *fmt, ...)
{
    SAY(-1, -1, fmt);
}
