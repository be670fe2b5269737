/* SPDX-License-Identifier: Apache-2.0 */
/* Suppressions: parsed once at start-up (normal context, may allocate),
 * matched by the reporter thread against the symbolized frames of a race.
 * A suppressed race is still synchronized by the fault handler; it is just
 * not printed and does not count for the exit status. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "report/report.h"
#include "report/suppress.h"

static struct sg_suppression *supps;
static int nsupps;
static const char *supp_path;

static const struct {
    const char *name;
    enum sg_supp_kind kind;
    int race_class;
} kinds[] = {
    { "race", SG_SUPP_RACE, 0 },
#define SG_RACE_CLASS(id, name, access, ACCESS) { name, SG_SUPP_CLASS, SG_CLASS_##id },
#define SG_RACE_KIND(id, class)
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
    { "access_site", SG_SUPP_ACCESS_SITE, 0 },
    { "copy_site", SG_SUPP_COPY_SITE, 0 },
};

/* "race, early-host-read, ..., access_site or copy_site": what a kind may be. */
static const char *kind_list(void)
{
    static char list[256];
    size_t n = 0, nkinds = sizeof kinds / sizeof kinds[0];
    list[0] = '\0';
    for (size_t i = 0; i < nkinds && n < sizeof list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == nkinds ? " or " : ", ";
        int w = snprintf(list + n, sizeof list - n, "%s%s", sep, kinds[i].name);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return list;
}

/* Whole-string glob: '*' any run of characters ('/' too), '?' one
 * character, '\' makes the next character literal. */
static int glob_match(const char *p, const char *s)
{
    /* Iterative matcher: on a mismatch after a '*', let that '*' swallow
     * one more character and retry; linear backtracking, no recursion. */
    const char *star_p = NULL, *star_s = NULL;
    for (;;) {
        if (*p == '*') {
            while (*p == '*')
                p++;
            star_p = p, star_s = s;
            continue;
        }
        if (*s == '\0' && *p == '\0')
            return 1;
        if (*s != '\0') {
            const char *lit = p[0] == '\\' && p[1] ? p + 1 : p;
            if ((*p == '?' && lit == p) || (*lit != '\0' && *lit == *s)) {
                p = lit + 1, s++;
                continue;
            }
        }
        if (!star_p || *star_s == '\0')
            return 0;
        p = star_p, s = ++star_s;
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* The row of kinds[] named name, or -1. */
static int kind_of(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int add(int kind, const char *name, const char *pattern, int line)
{
    struct sg_suppression *n = realloc(supps, (size_t)(nsupps + 1) * sizeof *supps);
    if (!n)
        return -1;
    supps = n;
    supps[nsupps] = (struct sg_suppression){ kinds[kind].kind, kinds[kind].race_class,
                                             strdup(name), strdup(pattern), line, 0 };
    if (!supps[nsupps].name || !supps[nsupps].pattern)
        return -1;
    nsupps++;
    return 0;
}

/* One line of the file: blank, "# comment" or "kind:pattern". */
static int parse_line(char *text, const char *path, int line, char *err, size_t errlen)
{
    char *s = trim(text);
    if (*s == '\0' || *s == '#')
        return 0;
    char *colon = strchr(s, ':');
    if (!colon) {
        snprintf(err, errlen, "%s:%d: expected KIND:PATTERN, got '%.200s'", path, line, s);
        return -1;
    }
    *colon = '\0';
    char *name = trim(s), *pattern = trim(colon + 1);
    int kind = kind_of(name);
    if (kind < 0) {
        snprintf(err, errlen, "%s:%d: unknown suppression kind '%.100s' (expected %s)", path,
                 line, name, kind_list());
        return -1;
    }
    if (*pattern == '\0') {
        snprintf(err, errlen, "%s:%d: empty pattern after '%s:'", path, line, name);
        return -1;
    }
    if (add(kind, name, pattern, line) < 0) {
        snprintf(err, errlen, "%s:%d: out of memory", path, line);
        return -1;
    }
    return 0;
}

int sg_suppressions_load(const char *path, char *err, size_t errlen)
{
    if (!path || !*path)
        return 0;
    /* Never blocking: a FIFO (or a terminal, a socket) opened here would
     * hold start-up until someone wrote to it; only a regular file is read
     * (and /dev/null, "no suppressions"). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "suppressions=%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 ||
        !(S_ISREG(st.st_mode) || (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)))) {
        snprintf(err, errlen, "suppressions=%s: not a regular file", path);
        close(fd);
        return -1;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "suppressions=%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    supp_path = strdup(path);
    char *text = NULL;
    size_t cap = 0;
    int line = 0, rc = 0;
    ssize_t len;
    errno = 0;
    while (rc == 0 && (len = getline(&text, &cap, f)) >= 0) {
        line++;
        /* A NUL cuts the line for every function after getline: what
         * followed it would be dropped without a word. */
        if (memchr(text, '\0', (size_t)len)) {
            snprintf(err, errlen, "%s:%d: a NUL byte in the line", path, line);
            rc = -1;
            break;
        }
        rc = parse_line(text, path, line, err, errlen);
        errno = 0;
    }
    /* getline returns -1 at the end and on errors alike (ENOMEM for a line
     * it cannot hold): only the end is the end. */
    if (rc == 0 && (ferror(f) || errno != 0)) {
        snprintf(err, errlen, "suppressions=%s: cannot read line %d: %s", path, line + 1,
                 strerror(errno ? errno : EIO));
        rc = -1;
    }
    free(text);
    fclose(f);
    return rc;
}

static int frame_matches(const char *pattern, const struct sg_frame_names *f)
{
    const char *names[] = { f->function, f->file, NULL, f->module };
    if (f->file) {
        const char *slash = strrchr(f->file, '/');
        names[2] = slash ? slash + 1 : NULL; /* "racy.c" matches /src/racy.c */
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i] && *names[i] && glob_match(pattern, names[i]))
            return 1;
    return 0;
}

static int stack_matches(const char *pattern, const struct sg_frame_names *fr, int n)
{
    for (int i = 0; i < n; i++)
        if (frame_matches(pattern, &fr[i]))
            return 1;
    return 0;
}

/* Which stacks a suppression looks at, given the race's kind: bit 0 the
 * access stack, bit 1 the enqueue stack; 0 when it does not apply. */
static int stacks_for(const struct sg_suppression *supp, enum sg_race_kind race_kind)
{
    switch (supp->kind) {
    case SG_SUPP_RACE:
        return 3;
    case SG_SUPP_CLASS:
        return (int)sg_race_class_of(race_kind) == supp->race_class ? 3 : 0;
    case SG_SUPP_ACCESS_SITE:
        return 1;
    case SG_SUPP_COPY_SITE:
        return 2;
    }
    return 0;
}

int sg_suppress_find(enum sg_race_kind race_kind, const struct sg_frame_names *access, int naccess,
                     const struct sg_frame_names *copy, int ncopy)
{
    for (int i = 0; i < nsupps; i++) {
        int which = stacks_for(&supps[i], race_kind);
        if (((which & 1) && stack_matches(supps[i].pattern, access, naccess)) ||
            ((which & 2) && stack_matches(supps[i].pattern, copy, ncopy)))
            return i;
    }
    return -1;
}

void sg_suppress_hit(int idx)
{
    if (idx >= 0 && idx < nsupps)
        __atomic_add_fetch(&supps[idx].hits, 1, __ATOMIC_RELAXED);
}

int sg_suppressions_count(void)
{
    return nsupps;
}

const struct sg_suppression *sg_suppression_get(int idx)
{
    return idx >= 0 && idx < nsupps ? &supps[idx] : NULL;
}

const char *sg_suppressions_path(void)
{
    return supp_path;
}

void sg_suppressions_reset_hits(void)
{
    for (int i = 0; i < nsupps; i++)
        supps[i].hits = 0;
}
