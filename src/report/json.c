/* SPDX-License-Identifier: Apache-2.0 */
/* JSON Lines for machines (json_path=PREFIX): one object per line, built
 * in a heap buffer (a report's stacks can be long) and written with one
 * write loop, so a reader sees whole lines. The file is per process, named
 * like log_path's (sg_log_expand_path), created on the first line, and
 * checked before each line as the log is (sg_own_file_is): a program that
 * closes the descriptor and reuses its number keeps its file intact. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "report/json.h"

enum { FILE_UNOPENED = -1, FILE_FAILED = -2 };

static int json_fd = FILE_UNOPENED;
static struct sg_own_file json_file;
static sg_lock_t open_lock = SG_LOCK_INIT;

static void put(struct sg_json *j, const char *s, size_t n)
{
    if (j->failed)
        return;
    if (j->len + n + 2 > j->cap) { /* room for the '\n' and a '\0' */
        size_t cap = j->cap ? j->cap : 4096;
        while (cap < j->len + n + 2)
            cap *= 2;
        char *b = realloc(j->buf, cap);
        if (!b) {
            j->failed = 1;
            return;
        }
        j->buf = b, j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
}

static void puts_(struct sg_json *j, const char *s)
{
    put(j, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s, or 0: JSON readers reject
 * invalid UTF-8, and symbol or file names are arbitrary bytes. */
static size_t utf8_len(const unsigned char *s)
{
    /* RFC 3629: the lead byte gives the length and the range of the second
     * byte (which rules out overlong forms, surrogates, > U+10FFFF). */
    unsigned char lo = 0x80, hi = 0xbf;
    size_t n;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

static void put_escaped(struct sg_json *j, const char *str)
{
    char esc[8];
    put(j, "\"", 1);
    for (const unsigned char *s = (const unsigned char *)str; *s;) {
        size_t n = *s >= 0x80 ? utf8_len(s) : 1;
        if (*s == '"' || *s == '\\') {
            esc[0] = '\\', esc[1] = (char)*s;
            put(j, esc, 2), s++;
        } else if (*s < 0x20 || n == 0) {
            /* Control characters, and bytes that are not UTF-8 (as the
             * Latin-1 character of the same value, so nothing is lost). */
            snprintf(esc, sizeof esc, "\\u%04x", *s);
            put(j, esc, 6), s++;
        } else {
            put(j, (const char *)s, n), s += n;
        }
    }
    put(j, "\"", 1);
}

static void member(struct sg_json *j, const char *key)
{
    if (!j->first)
        put(j, ",", 1);
    j->first = 0;
    if (key) {
        put_escaped(j, key);
        put(j, ":", 1);
    }
}

void sg_json_begin(struct sg_json *j)
{
    memset(j, 0, sizeof *j);
    put(j, "{", 1);
    j->first = 1;
}

void sg_json_open(struct sg_json *j, const char *key, char bracket)
{
    member(j, key);
    put(j, &bracket, 1);
    j->first = 1;
}

void sg_json_close(struct sg_json *j, char bracket)
{
    put(j, &bracket, 1);
    j->first = 0;
}

void sg_json_str(struct sg_json *j, const char *key, const char *s)
{
    member(j, key);
    if (s)
        put_escaped(j, s);
    else
        puts_(j, "null");
}

void sg_json_int(struct sg_json *j, const char *key, long long v)
{
    char num[24];
    member(j, key);
    snprintf(num, sizeof num, "%lld", v);
    puts_(j, num);
}

void sg_json_bool(struct sg_json *j, const char *key, int v)
{
    member(j, key);
    puts_(j, v ? "true" : "false");
}

void sg_json_null(struct sg_json *j, const char *key)
{
    member(j, key);
    puts_(j, "null");
}

void sg_json_hex(struct sg_json *j, const char *key, uintptr_t v)
{
    char num[24];
    member(j, key);
    snprintf(num, sizeof num, "\"0x%lx\"", (unsigned long)v);
    puts_(j, num);
}

static int open_file(void)
{
    char path[4096];
    int fd = -1;
    if (sg_log_expand_path(sg_opt.json_path, path, sizeof path) == 0)
        fd = sg_own_file_create(&json_file, path);
    if (fd < 0) {
        char why[160];
        sg_log_path_problem(errno, why, sizeof why);
        sg_log_error("cannot create JSON file from json_path=%.256s%s: %s; no JSON output\n",
                     sg_opt.json_path, strlen(sg_opt.json_path) > 256 ? "..." : "", why);
        return FILE_FAILED;
    }
    return fd;
}

/* The file opened again after the program closed its descriptor or put a
 * file of its own under that number; the old number is the program's now,
 * so it is left alone. */
static int reopen_file(void)
{
    int fd = sg_own_file_reopen(&json_file);
    if (fd < 0) {
        sg_log_error("cannot open the JSON file %.256s again: %s; no more JSON output\n",
                     json_file.path, strerror(errno));
        return FILE_FAILED;
    }
    return fd;
}

/* Whether fd can be written as it is: the file, checked before each line
 * as the log is (base/log.c), or the known failure. */
static int settled(int fd)
{
    return fd == FILE_FAILED || (fd >= 0 && sg_own_file_is(&json_file, fd));
}

static int current_fd(void)
{
    int fd = __atomic_load_n(&json_fd, __ATOMIC_ACQUIRE);
    if (settled(fd))
        return fd;
    sg_lock(&open_lock);
    if (json_fd == FILE_UNOPENED)
        __atomic_store_n(&json_fd, open_file(), __ATOMIC_RELEASE);
    else if (!settled(json_fd))
        __atomic_store_n(&json_fd, reopen_file(), __ATOMIC_RELEASE);
    fd = json_fd;
    sg_unlock(&open_lock);
    return fd;
}

int sg_json_enabled(void)
{
    return sg_opt.json_path && sg_opt.json_path[0] &&
           __atomic_load_n(&json_fd, __ATOMIC_RELAXED) != FILE_FAILED;
}

void sg_json_write_open(struct sg_json *j)
{
    put(j, "}\n", 2);
    int fd = j->failed || !sg_json_enabled() ? FILE_FAILED : current_fd();
    if (fd >= 0)
        sg_write_all(fd, j->buf, j->len);
    if (!j->failed)
        j->len -= 2; /* open again */
}

void sg_json_free(struct sg_json *j)
{
    free(j->buf);
    memset(j, 0, sizeof *j);
}

void sg_json_end(struct sg_json *j)
{
    sg_json_write_open(j);
    sg_json_free(j);
}

void sg_json_after_fork_child(void)
{
    /* The parent's file is named with the parent's pid: leave it to it;
     * a number the program reused is the program's. */
    if (json_fd >= 0 && sg_own_file_is(&json_file, json_fd))
        close(json_fd);
    json_fd = FILE_UNOPENED;
    json_file.path[0] = '\0';
    sg_lock_reset(&open_lock);
}
