/* SPDX-License-Identifier: Apache-2.0 */
/* SYNCGUARD_OPTIONS parsing, sanitizer style: "key=value" pairs separated by
 * ':' (or spaces or commas), keys and their types from options.def. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/options.h"

struct sg_options sg_opt;

enum opt_type { T_ENUM, T_BOOL, T_INT, T_STR };

struct opt_desc {
    const char *name;
    enum opt_type type;
    const char *choices; /* T_ENUM */
    long lo, hi;         /* T_INT */
    const char *help;
    size_t offset;
};

static const struct opt_desc descs[] = {
#define SG_OPT_ENUM(n, d, c, h) { #n, T_ENUM, c, 0, 0, h, offsetof(struct sg_options, n) },
#define SG_OPT_BOOL(n, d, h) { #n, T_BOOL, NULL, 0, 1, h, offsetof(struct sg_options, n) },
#define SG_OPT_INT(n, d, l, u, h) { #n, T_INT, NULL, l, u, h, offsetof(struct sg_options, n) },
#define SG_OPT_STR(n, d, h) { #n, T_STR, NULL, 0, 0, h, offsetof(struct sg_options, n) },
#include "base/options.def"
#undef SG_OPT_ENUM
#undef SG_OPT_BOOL
#undef SG_OPT_INT
#undef SG_OPT_STR
};

static void set_defaults(struct sg_options *o)
{
#define SG_OPT_ENUM(n, d, c, h) o->n = d;
#define SG_OPT_BOOL(n, d, h) o->n = d;
#define SG_OPT_INT(n, d, l, u, h) o->n = d;
#define SG_OPT_STR(n, d, h) o->n = d;
#include "base/options.def"
#undef SG_OPT_ENUM
#undef SG_OPT_BOOL
#undef SG_OPT_INT
#undef SG_OPT_STR
}

static const struct opt_desc *find_desc(const char *key, size_t len)
{
    for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++)
        if (strlen(descs[i].name) == len && strncmp(descs[i].name, key, len) == 0)
            return &descs[i];
    return NULL;
}

/* Index of value among "a|b|c", or -1. */
static int enum_index(const char *choices, const char *value)
{
    size_t vlen = strlen(value);
    int idx = 0;
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vlen && strncmp(p, value, len) == 0)
            return idx;
        if (!bar)
            return -1;
        p = bar + 1;
    }
}

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = { "1", "true", "yes", "on" };
    static const char *const no[] = { "0", "false", "no", "off" };
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0)
            return *out = 1, 0;
        if (strcmp(v, no[i]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 0);
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

static int apply(const struct opt_desc *d, const char *value, struct sg_options *o,
                 char *err, size_t errlen)
{
    char *field = (char *)o + d->offset;
    switch (d->type) {
    case T_ENUM: {
        int idx = enum_index(d->choices, value);
        if (idx < 0) {
            snprintf(err, errlen, "invalid value '%s' for option '%s' (expected one of %s)",
                     value, d->name, d->choices);
            return -1;
        }
        *(int *)field = idx;
        return 0;
    }
    case T_BOOL:
        if (parse_bool(value, (int *)field) == 0)
            return 0;
        snprintf(err, errlen, "invalid value '%s' for option '%s' (expected 0 or 1)", value,
                 d->name);
        return -1;
    case T_INT:
        if (parse_long(value, d->lo, d->hi, (long *)field) == 0)
            return 0;
        snprintf(err, errlen, "invalid value '%s' for option '%s' (expected an integer %ld..%ld)",
                 value, d->name, d->lo, d->hi);
        return -1;
    case T_STR:
        /* An empty log_path names no file: the log would be ".PID" in
         * whatever the working directory is. */
        if (!*value && field == (char *)&o->log_path) {
            snprintf(err, errlen, "empty value for option 'log_path' (expected stderr, stdout "
                                  "or a path prefix)");
            return -1;
        }
        /* The value lives in the copy of the option string made by the caller. */
        *(const char **)field = value;
        return 0;
    }
    return -1;
}

static int is_separator(char c)
{
    return c == ':' || c == ' ' || c == ',' || c == '\t' || c == '\n';
}

int sg_options_parse(const char *text, struct sg_options *o, char *err, size_t errlen)
{
    set_defaults(o);
    if (!text)
        return 0;
    /* Kept for the life of the process: T_STR fields point into it. */
    char *copy = strdup(text);
    if (!copy) {
        snprintf(err, errlen, "out of memory parsing SYNCGUARD_OPTIONS");
        return -1;
    }
    char *p = copy;
    while (*p) {
        while (*p && is_separator(*p))
            p++;
        if (!*p)
            break;
        char *item = p;
        while (*p && !is_separator(*p))
            p++;
        if (*p)
            *p++ = '\0';
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, errlen, "malformed option '%s' (expected key=value)", item);
            return -1;
        }
        const struct opt_desc *d = find_desc(item, (size_t)(eq - item));
        if (!d) {
            *eq = '\0';
            snprintf(err, errlen, "unknown option '%s' (help=1 lists them)", item);
            return -1;
        }
        if (apply(d, eq + 1, o, err, errlen) < 0)
            return -1;
    }
    return 0;
}

static void print_value(FILE *out, const struct opt_desc *d, const struct sg_options *o)
{
    const char *field = (const char *)o + d->offset;
    switch (d->type) {
    case T_ENUM: {
        int idx = *(const int *)field;
        const char *p = d->choices;
        for (int i = 0; i < idx && p; i++)
            p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL;
        int len = p ? (int)(strchr(p, '|') ? strchr(p, '|') - p : (long)strlen(p)) : 0;
        fprintf(out, "%.*s", len, p ? p : "");
        break;
    }
    case T_BOOL:
        fprintf(out, "%d", *(const int *)field);
        break;
    case T_INT:
        fprintf(out, "%ld", *(const long *)field);
        break;
    case T_STR:
        fprintf(out, "%s", *(const char *const *)field);
        break;
    }
}

void sg_options_print_help(FILE *out, const struct sg_options *o)
{
    fprintf(out, "Available flags for syncguard (SYNCGUARD_OPTIONS=key=value:key=value):\n");
    for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
        fprintf(out, "\t%s\n\t\t- %s (current: ", descs[i].name, descs[i].help);
        print_value(out, &descs[i], o);
        fprintf(out, ")\n");
    }
}
