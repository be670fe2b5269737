/* SPDX-License-Identifier: Apache-2.0 */
/* Where syncguard's output goes (log_path) and how it gets there. */
#ifndef SG_BASE_LOG_H
#define SG_BASE_LOG_H

#include <stddef.h>
#include <sys/types.h>

/* Writes all of buf to the log, opening the log file on first use.
 * Async-signal-safe once the log is open. */
void sg_log_write(const char *buf, size_t len);
/* Writes all of buf to fd with the write system call itself, not through
 * syncguard's own write() shim. Async-signal-safe. */
void sg_write_all(int fd, const char *buf, size_t len);
/* printf to the log; normal context only. */
void sg_log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "==PID==ERROR: syncguard: ..." on stderr and in the log; normal context. */
void sg_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "==PID==WARNING: syncguard: ..." on the log, once per call site key. */
void sg_log_warn_once(int *said, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Expands %p and %r in a log_path/json_path prefix into out; appends .PID
 * when the prefix has no %p. Returns 0, or -1 with errno ENAMETOOLONG when
 * it does not fit, EINVAL when %r's rank is not a number. */
int sg_log_expand_path(const char *prefix, char *out, size_t outlen);
/* Why sg_log_expand_path or the file's creation failed with err, in words
 * (naming the rank's variable for EINVAL). */
void sg_log_path_problem(int err, char *out, size_t len);
/* A file syncguard created for its output (the log, the JSON file), and
 * what file it is: a program may close syncguard's descriptor (a daemon
 * closing every descriptor) and open or dup2() a file of its own onto the
 * same number, which must never get syncguard's output. */
struct sg_own_file {
    char path[4096]; /* as created; empty: none */
    dev_t dev;
    ino_t ino;
};
/* Creates the file for a process: never follows a symlink, never truncates
 * or appends to a file that exists (it tries NAME.1, NAME.2, ...). Returns
 * its descriptor, moved above the program's low numbers (close-on-exec), or
 * -1 with errno set. */
int sg_own_file_create(struct sg_own_file *f, const char *path);
/* Whether fd is still f's file (device and inode). Async-signal-safe. */
int sg_own_file_is(const struct sg_own_file *f, int fd);
/* f's file opened again, to append, after the program closed or replaced
 * its descriptor, and moved as sg_own_file_create moves it; -1 if that
 * fails. Async-signal-safe; callers serialize it themselves. */
int sg_own_file_reopen(struct sg_own_file *f);
/* The log is opened lazily in the process that writes first; after fork the
 * child must open its own. */
void sg_log_after_fork_child(void);
/* Small signal-safe formatting helpers. */
size_t sg_fmt_u64(char *out, unsigned long long v, int base);

/* A log line built without allocation or stdio, for the fault handler:
 * sg_line_begin writes "==PID==", the others append (what does not fit is
 * cut), sg_line_write logs it. */
struct sg_line {
    char buf[256];
    size_t n;
};
void sg_line_begin(struct sg_line *l);
void sg_line_str(struct sg_line *l, const char *s);
void sg_line_num(struct sg_line *l, unsigned long long v, int base);
void sg_line_write(const struct sg_line *l);
#endif
