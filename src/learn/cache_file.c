/* SPDX-License-Identifier: Apache-2.0 */
/* The cache's file format (learn/cache.h), version 1: text, one file per
 * module image, named HASH-SIZE.access (HASH: 16 lowercase hex digits):
 *
 *   syncguard-access 1 HASH SIZE
 *   kernel NAME launches=N varies=0|1 other=BITS nptrs=N
 *   p J BITS LO HI                 (a parameter with accesses or bytes)
 *   ...
 *   end CHECKSUM
 *
 * NAME escapes every byte at or below a space, at or above 0x7f, and '%' as
 * %XX; BITS are learn/access_set.h's SG_AX_* in decimal; LO and HI the
 * bytes touched relative to the argument (signed decimal); CHECKSUM is the
 * FNV-1a 64 of every byte before the "end" line, 16 lowercase hex digits.
 * A reader trusts nothing: any line out of place, any number out of range,
 * a wrong header or checksum makes the whole file invalid. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "learn/cache_int.h"

#define MAX_NAME 4096

/* ---- writing ---- */

static int put_name(FILE *f, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p <= ' ' || *p >= 0x7f || *p == '%')
            fprintf(f, "%%%02X", *p);
        else
            fputc(*p, f);
    return 0;
}

static void put_set(FILE *f, const char *name, const struct sg_access_set *s)
{
    fputs("kernel ", f);
    put_name(f, name);
    fprintf(f, " launches=%" PRIu32 " varies=%u other=%u nptrs=%u\n", s->launches, s->varies ? 1u : 0u,
            (unsigned)s->other_bits, (unsigned)s->nptrs);
    for (unsigned j = 0; j < s->nptrs; j++) {
        const struct sg_param_access *p = &s->p[j];
        if (p->bits || p->lo < p->hi)
            fprintf(f, "p %u %u %" PRId64 " %" PRId64 "\n", j, (unsigned)p->bits, p->lo, p->hi);
    }
}

char *sg_cache_format(const struct sg_cache_module *m, size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    fprintf(f, "syncguard-access 1 %016" PRIx64 " %" PRIu64 "\n", m->key.hash, m->key.size);
    for (const struct sg_cache_fn *fn = m->fns; fn; fn = fn->next)
        put_set(f, fn->name, fn->set);
    if (fflush(f) != 0) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fprintf(f, "end %016" PRIx64 "\n", sg_hash_bytes(buf, size));
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    *len = size;
    return buf;
}

/* ---- reading ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Unescapes the name in [s, e) into out (MAX_NAME + 1 bytes); 0 if bad. */
static int get_name(const char *s, const char *e, char *out)
{
    size_t n = 0;
    for (; s < e; s++) {
        int c = (unsigned char)*s;
        if (c == '%') {
            if (e - s < 3 || hexval(s[1]) < 0 || hexval(s[2]) < 0)
                return 0;
            c = hexval(s[1]) * 16 + hexval(s[2]);
            s += 2;
        }
        if (c == 0 || n == MAX_NAME)
            return 0;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return n > 0;
}

static int parse_kernel(const char *line, char *name, struct sg_access_set *s)
{
    const char *e = strchr(line + 7, ' ');
    unsigned launches, varies, other, nptrs;
    char tail;
    if (!e || !get_name(line + 7, e, name) ||
        sscanf(e, " launches=%u varies=%u other=%u nptrs=%u%c", &launches, &varies, &other, &nptrs,
               &tail) != 4 ||
        varies > 1 || other > SG_AX_ALL || nptrs > SG_KPARAMS_MAX_PTRS || launches == 0)
        return 0;
    sg_access_set_init(s, nptrs);
    s->launches = launches, s->varies = (uint8_t)varies, s->other_bits = (uint8_t)other;
    return 1;
}

static int parse_param(const char *line, struct sg_access_set *s)
{
    unsigned j, bits;
    long long lo, hi;
    char tail;
    if (sscanf(line, "p %u %u %lld %lld%c", &j, &bits, &lo, &hi, &tail) != 4 || j >= s->nptrs ||
        bits > SG_AX_ALL)
        return 0;
    s->p[j].bits = (uint8_t)bits, s->p[j].lo = lo, s->p[j].hi = hi;
    return 1;
}

/* The checksum line ends the text: 1 when present and right. */
static int check_sum(const char *buf, size_t n, size_t *body)
{
    if (n < 22 || buf[n - 1] != '\n')
        return 0;
    size_t at = n - 1;
    while (at > 0 && buf[at - 1] != '\n')
        at--;
    uint64_t want;
    char tail;
    if (n - at != 21 || sscanf(buf + at, "end %16" SCNx64 "%c", &want, &tail) != 2 || tail != '\n')
        return 0;
    *body = at;
    return sg_hash_bytes(buf, at) == want;
}

/* One pass over the text; take (when not NULL) gets each function's set. */
static int parse(const char *buf, size_t n, struct sg_module_key key,
                 void (*take)(const char *name, const struct sg_access_set *s, void *arg), void *arg,
                 const char **why)
{
    size_t body;
    if (memchr(buf, '\0', n) || !check_sum(buf, n, &body))
        return *why = "its checksum is missing or wrong", 0;
    char *text = strndup(buf, body), *save = NULL, name[MAX_NAME + 1];
    if (!text)
        return *why = "out of memory", 0;
    struct sg_access_set s;
    int ok = 1, have = 0, lineno = 0;
    uint64_t hash, size;
    for (char *line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
        char tail;
        if (lineno++ == 0) {
            ok = sscanf(line, "syncguard-access 1 %16" SCNx64 " %" SCNu64 "%c", &hash, &size, &tail) == 2 &&
                 hash == key.hash && size == key.size;
            *why = "its header is not this module's";
        } else if (strncmp(line, "kernel ", 7) == 0) {
            if (have && take)
                take(name, &s, arg);
            ok = have = parse_kernel(line, name, &s);
            *why = "a kernel line is malformed";
        } else {
            ok = have && parse_param(line, &s);
            *why = "a parameter line is malformed or out of place";
        }
    }
    if (ok && lineno == 0)
        ok = 0, *why = "it is empty";
    if (ok && have && take)
        take(name, &s, arg);
    free(text);
    return ok;
}

int sg_cache_parse(const char *buf, size_t n, struct sg_module_key key,
                   void (*take)(const char *name, const struct sg_access_set *s, void *arg), void *arg,
                   const char **why)
{
    /* All or nothing: the sets are taken only once the whole file passed. */
    return parse(buf, n, key, NULL, NULL, why) && parse(buf, n, key, take, arg, why);
}
