/* SPDX-License-Identifier: Apache-2.0 */
/* Where syncguard's output goes (log_path) and how it gets there. */
#ifndef SG_BASE_LOG_H
#define SG_BASE_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/format.h"
#include "base/options.h"

/* Writes all of buf to the log, opening the log file on first use.
 * Async-signal-safe once the log is open. */
void sg_log_write(const char *buf, size_t len);
/* Writes all of buf to fd with the write system call itself, not through
 * syncguard's own write() shim. Async-signal-safe. */
void sg_write_all(int fd, const char *buf, size_t len);
/* The logging idiom (compiler-rt's Report and VReport are the model).
 * Every line syncguard writes of its own begins with "==PID==syncguard: ",
 * "==PID==WARNING: syncguard: " or "==PID==ERROR: syncguard: "; these
 * functions write the prefix, the caller the rest, newline included. A line
 * goes out in one write(2), cut at 4 KiB (the cut line still ends in a
 * newline). The formatting is syncguard's own (sg_vformat: no allocation, no
 * locale, no stdio), so all of them are async-signal-safe once the log is
 * open, and the fault handler uses them like everything else. */
enum sg_log_kind { SG_LOG_NOTE, SG_LOG_WARNING, SG_LOG_ERROR };
/* "==PID==syncguard: ...", on the log. */
void sg_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "==PID==WARNING: syncguard: ...", on the log. */
void sg_log_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "==PID==ERROR: syncguard: ...", on the log. */
void sg_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of the kind on stderr, whatever log_path says: before the log can
 * be opened (the options are being parsed), or when it cannot be. */
void sg_log_stderr(enum sg_log_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* No prefix: the lines that continue one written with a prefix (a table
 * under its heading). */
void sg_log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The prefix of a line of the kind into out (NUL-terminated, cut to len);
 * its length. For a report assembled elsewhere (report/text.c). */
size_t sg_log_prefix(char *out, size_t len, enum sg_log_kind kind);

/* sg_log(...) when verbosity is at least level; the arguments are not
 * evaluated otherwise. */
#define SG_VLOG(level, ...)                      \
    do {                                         \
        if (sg_opt.verbosity >= (level))         \
            sg_log(__VA_ARGS__);                 \
    } while (0)
/* The statements, the first time this call site is reached in the process
 * (one atomic flag per site: async-signal-safe, and never twice even when
 * threads race to it). Once per process: a forked child does not say it
 * again. */
#define SG_ONCE(...)                                                     \
    do {                                                                 \
        static int sg_once_said_;                                        \
        if (!__atomic_exchange_n(&sg_once_said_, 1, __ATOMIC_RELAXED)) { \
            __VA_ARGS__;                                                 \
        }                                                                \
    } while (0)
/* A warning said once per call site. */
#define SG_WARN_ONCE(...) SG_ONCE(sg_log_warning(__VA_ARGS__))

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
#endif
