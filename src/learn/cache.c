/* SPDX-License-Identifier: Apache-2.0 */
/* The access-set cache (learn/cache.h): modules in a list, each with its
 * functions, behind one lock; files read when a module loads and written
 * at exit. Writers of one file in several processes take turns under an
 * flock and join what the others wrote; readers need no lock, since a
 * file is only ever replaced whole by a rename. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "learn/cache_int.h"

#define MAX_FILE (16u << 20) /* a module's file is a few KiB; more is not ours */

static sg_lock_t cache_lock = SG_LOCK_INIT;
static struct sg_cache_module *modules SG_GUARDED_BY(cache_lock);
static char *dir;
static int dir_resolved;

struct sg_module_key sg_module_key_of(const void *image, size_t size)
{
    struct sg_module_key k = { sg_hash_bytes(image, size), size };
    return k;
}

static char *join(const char *a, const char *b)
{
    char *s = malloc(strlen(a) + strlen(b) + 1);
    if (s)
        strcat(strcpy(s, a), b);
    return s;
}

const char *sg_cache_dir(void)
{
    if (dir_resolved)
        return dir;
    dir_resolved = 1;
    const char *opt = sg_opt.cache_dir, *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (opt && *opt)
        dir = strcmp(opt, "off") == 0 ? NULL : strdup(opt);
    else if (xdg && xdg[0] == '/')
        dir = join(xdg, "/syncguard");
    else if (home && home[0] == '/')
        dir = join(home, "/.cache/syncguard");
    return dir;
}

static struct sg_cache_module *module_of(struct sg_module_key k, int make) SG_REQUIRES(cache_lock)
{
    for (struct sg_cache_module *m = modules; m; m = m->next)
        if (m->key.hash == k.hash && m->key.size == k.size)
            return m;
    struct sg_cache_module *m = make ? calloc(1, sizeof *m) : NULL;
    if (m) {
        m->key = k;
        m->next = modules;
        modules = m;
    }
    return m;
}

static struct sg_cache_fn *fn_of(struct sg_cache_module *m, const char *name, int make)
{
    for (struct sg_cache_fn *f = m->fns; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    struct sg_cache_fn *f = make ? calloc(1, sizeof *f) : NULL;
    if (f && !(f->name = strdup(name))) {
        free(f);
        return NULL;
    }
    if (f) {
        f->next = m->fns;
        m->fns = f;
    }
    return f;
}

/* Joins s into m's set for name (a new set published); 1 when it changed. */
static int join_into(struct sg_cache_module *m, const char *name, const struct sg_access_set *s)
{
    struct sg_cache_fn *f = fn_of(m, name, 1);
    struct sg_access_set *n = f ? malloc(sizeof *n) : NULL;
    if (!n)
        return 0;
    if (f->set) {
        *n = *f->set;
        sg_access_set_join(n, s);
    } else {
        *n = *s;
    }
    f->set = n; /* the old one stays allocated: a caller may still hold it */
    return 1;
}

const struct sg_access_set *sg_cache_find(struct sg_module_key k, const char *function)
{
    sg_lock(&cache_lock);
    struct sg_cache_module *m = module_of(k, 0);
    struct sg_cache_fn *f = m ? fn_of(m, function, 0) : NULL;
    const struct sg_access_set *s = f ? f->set : NULL;
    sg_unlock(&cache_lock);
    return s;
}

/* Joins s into what this process learnt of f, to be saved. */
static void keep_mine(struct sg_cache_fn *f, const struct sg_access_set *s)
{
    if (!f->mine && (f->mine = malloc(sizeof *f->mine)))
        *f->mine = (struct sg_access_set){ 0 };
    if (f->mine)
        sg_access_set_join(f->mine, s);
}

void sg_cache_put(struct sg_module_key k, const char *function, const struct sg_access_set *s)
{
    sg_lock(&cache_lock);
    struct sg_cache_module *m = module_of(k, 1);
    if (m && join_into(m, function, s)) {
        keep_mine(fn_of(m, function, 0), s);
        m->dirty = 1;
    }
    sg_unlock(&cache_lock);
}

static char *path_of(struct sg_module_key k, const char *suffix)
{
    const char *d = sg_cache_dir();
    char name[64];
    snprintf(name, sizeof name, "/%016" PRIx64 "-%" PRIu64 ".access", k.hash, k.size);
    char *base = d ? join(d, name) : NULL, *p = base && suffix ? join(base, suffix) : base;
    if (p != base)
        free(base);
    return p;
}

/* The file's bytes (malloc'ed), or NULL with errno set (ENOENT: none). */
static char *read_all(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_FILE &&
        (buf = malloc((size_t)st.st_size + 1))) {
        ssize_t got = read(fd, buf, (size_t)st.st_size);
        if (got != st.st_size) {
            free(buf);
            buf = NULL;
            errno = EIO;
        }
        *n = (size_t)st.st_size;
    } else if (!buf) {
        errno = EFBIG;
    }
    close(fd);
    return buf;
}

struct taking {
    struct sg_cache_module *m;
};

static void take(const char *name, const struct sg_access_set *s, void *arg)
{
    join_into(((struct taking *)arg)->m, name, s);
}

/* Joins the file's sets into m; 1 when the file was valid. Says why not
 * (a missing file is silent). */
static int merge_file(struct sg_cache_module *m, const char *path) SG_REQUIRES(cache_lock)
{
    size_t n = 0;
    const char *why = NULL;
    char *buf = read_all(path, &n);
    if (!buf) {
        if (errno != ENOENT)
            SG_VLOG(1, "ignoring the access cache file %s: %s\n", path, strerror(errno));
        return 0;
    }
    struct taking t = { m };
    int ok = sg_cache_parse(buf, n, m->key, take, &t, &why);
    if (!ok)
        SG_VLOG(1, "ignoring the access cache file %s: %s; it will be rewritten\n", path, why);
    free(buf);
    return ok;
}

int sg_cache_load_module(struct sg_module_key k)
{
    char *path = path_of(k, NULL);
    sg_lock(&cache_lock);
    struct sg_cache_module *m = module_of(k, 1);
    if (m && !m->loaded) {
        m->loaded = 1;
        if (path && !merge_file(m, path))
            m->dirty |= access(path, F_OK) == 0; /* a bad file: rewrite it */
    }
    int known = m && m->fns;
    sg_unlock(&cache_lock);
    free(path);
    return known;
}

/* ---- saving ---- */

static int make_dirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0700);
            *s = '/';
        }
    int r = mkdir(p, 0700) == 0 || errno == EEXIST ? 0 : -1;
    free(p);
    return r;
}

static int write_file(const char *path, const char *text, size_t n)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int ok = write(fd, text, n) == (ssize_t)n && fsync(fd) == 0;
    ok &= close(fd) == 0;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

static void free_module(struct sg_cache_module *m)
{
    for (struct sg_cache_fn *f = m->fns, *next; f; f = next) {
        next = f->next;
        free((void *)f->set);
        free(f->mine);
        free(f->name);
        free(f);
    }
    free(m);
}

/* The file's sets joined with what this process learnt, written; under
 * the file's lock. 0 on success, with errno set otherwise. */
static int save_module(struct sg_cache_module *m) SG_REQUIRES(cache_lock)
{
    char *path = path_of(m->key, NULL), *lock = path_of(m->key, ".lock");
    int r = -1, fd = lock ? open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
    struct sg_cache_module *out = calloc(1, sizeof *out);
    if (fd >= 0 && out && flock(fd, LOCK_EX) == 0) {
        out->key = m->key;
        merge_file(out, path);
        for (struct sg_cache_fn *f = m->fns; f; f = f->next)
            if (f->mine)
                join_into(out, f->name, f->mine);
        size_t n = 0;
        char *text = sg_cache_format(out, &n);
        r = text ? write_file(path, text, n) : -1;
        free(text);
        flock(fd, LOCK_UN);
    }
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (out)
        free_module(out);
    free(path);
    free(lock);
    errno = e;
    return r;
}

int sg_cache_save(void)
{
    const char *d = sg_cache_dir();
    int written = 0;
    if (!d)
        return 0;
    sg_lock(&cache_lock);
    int any = 0;
    for (struct sg_cache_module *m = modules; m; m = m->next)
        any |= m->dirty;
    if (any && make_dirs(d) != 0) {
        SG_VLOG(1, "cannot create the access cache folder %s: %s; what was learnt is not kept\n", d,
                strerror(errno));
        any = 0;
    }
    for (struct sg_cache_module *m = modules; any && m; m = m->next) {
        if (!m->dirty)
            continue;
        if (save_module(m) != 0) {
            SG_VLOG(1, "cannot write the access cache in %s: %s; what was learnt is not kept\n", d,
                    strerror(errno));
            break;
        }
        written++;
        m->dirty = 0;
        for (struct sg_cache_fn *f = m->fns; f; f = f->next)
            free(f->mine), f->mine = NULL;
    }
    sg_unlock(&cache_lock);
    return written;
}

void sg_cache_each(void (*fn)(struct sg_module_key m, const char *function, const struct sg_access_set *s,
                              void *arg),
                   void *arg)
{
    sg_lock(&cache_lock);
    for (struct sg_cache_module *m = modules; m; m = m->next)
        for (struct sg_cache_fn *f = m->fns; f; f = f->next)
            if (f->set)
                fn(m->key, f->name, f->set, arg);
    sg_unlock(&cache_lock);
}

void sg_cache_reset_for_tests(void)
{
    sg_lock(&cache_lock);
    modules = NULL; /* leaked on purpose: sets handed out stay valid */
    sg_unlock(&cache_lock);
    free(dir);
    dir = NULL;
    dir_resolved = 0;
}
