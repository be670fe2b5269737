/* SPDX-License-Identifier: Apache-2.0 */
/* syncguard's own formatting (base/format.h): what the log and the reports
 * print, written without allocation, locks or stdio, so that the fault
 * handler may format too. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "base/format.h"

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

struct fmt_out {
    char *p;
    size_t len; /* room, NUL included */
    size_t n;   /* the length of the whole, written or not */
};

static void out_c(struct fmt_out *o, char c)
{
    if (o->n + 1 < o->len)
        o->p[o->n] = c;
    o->n++;
}

static void out_n(struct fmt_out *o, char c, size_t k)
{
    while (k--)
        out_c(o, c);
}

static void out_s(struct fmt_out *o, const char *s, size_t k)
{
    while (k--)
        out_c(o, *s++);
}

struct spec {
    int minus, zero, alt, space, plus;
    size_t width;
    int prec; /* -1: none */
};

static void out_padded(struct fmt_out *o, const struct spec *sp, const char *s, size_t k)
{
    size_t pad = sp->width > k ? sp->width - k : 0;
    if (!sp->minus)
        out_n(o, ' ', pad);
    out_s(o, s, k);
    if (sp->minus)
        out_n(o, ' ', pad);
}

/* An integer as printf writes it: sign or 0x first, then the zeros the
 * precision (or the 0 flag's width) asks for, then the digits. */
static void out_int(struct fmt_out *o, const struct spec *sp, unsigned long long v, int neg,
                    int is_signed, char conv)
{
    int base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : 10;
    const char *hex = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[24];
    size_t nd = 0;
    if (!(v == 0 && sp->prec == 0)) {
        unsigned long long w = v;
        do {
            digits[sizeof digits - 1 - nd++] = hex[w % (unsigned)base];
            w /= (unsigned)base;
        } while (w);
    }
    const char *pre = "";
    if (is_signed)
        pre = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    else if (sp->alt && v != 0 && base == 16)
        pre = conv == 'X' ? "0X" : "0x";
    size_t zeros = sp->prec >= 0 && (size_t)sp->prec > nd ? (size_t)sp->prec - nd : 0;
    if (sp->alt && base == 8 && zeros == 0 && (nd == 0 || digits[sizeof digits - nd] != '0'))
        zeros = 1; /* # with o: the first digit is a 0 */
    size_t body = strlen(pre) + zeros + nd;
    size_t pad = sp->width > body ? sp->width - body : 0;
    if (sp->zero && !sp->minus && sp->prec < 0)
        zeros += pad, pad = 0;
    if (!sp->minus)
        out_n(o, ' ', pad);
    out_s(o, pre, strlen(pre));
    out_n(o, '0', zeros);
    out_s(o, digits + sizeof digits - nd, nd);
    if (sp->minus)
        out_n(o, ' ', pad);
}

enum length { LEN_INT, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

static long long arg_signed(va_list *ap, enum length l)
{
    switch (l) {
    case LEN_HH: return (signed char)va_arg(*ap, int);
    case LEN_H: return (short)va_arg(*ap, int);
    case LEN_L: return va_arg(*ap, long);
    case LEN_LL: return va_arg(*ap, long long);
    case LEN_Z: return va_arg(*ap, ssize_t);
    case LEN_J: return va_arg(*ap, intmax_t);
    case LEN_T: return va_arg(*ap, ptrdiff_t);
    default: return va_arg(*ap, int);
    }
}

static unsigned long long arg_unsigned(va_list *ap, enum length l)
{
    switch (l) {
    case LEN_HH: return (unsigned char)va_arg(*ap, unsigned);
    case LEN_H: return (unsigned short)va_arg(*ap, unsigned);
    case LEN_L: return va_arg(*ap, unsigned long);
    case LEN_LL: return va_arg(*ap, unsigned long long);
    case LEN_Z: return va_arg(*ap, size_t);
    case LEN_J: return va_arg(*ap, uintmax_t);
    case LEN_T: return (unsigned long long)va_arg(*ap, ptrdiff_t);
    default: return va_arg(*ap, unsigned);
    }
}

static enum length parse_length(const char **f)
{
    const char *p = *f;
    enum length l = LEN_INT;
    if (p[0] == 'h' && p[1] == 'h')
        l = LEN_HH, p += 2;
    else if (p[0] == 'l' && p[1] == 'l')
        l = LEN_LL, p += 2;
    else if (*p == 'h')
        l = LEN_H, p++;
    else if (*p == 'l')
        l = LEN_L, p++;
    else if (*p == 'z')
        l = LEN_Z, p++;
    else if (*p == 'j')
        l = LEN_J, p++;
    else if (*p == 't')
        l = LEN_T, p++;
    *f = p;
    return l;
}

/* One conversion, f just after its '%'; returns what follows it. */
static const char *one_conversion(struct fmt_out *o, const char *f, va_list *ap)
{
    const char *start = f - 1;
    struct spec sp = { 0, 0, 0, 0, 0, 0, -1 };
    for (;; f++) {
        if (*f == '-')
            sp.minus = 1;
        else if (*f == '0')
            sp.zero = 1;
        else if (*f == '#')
            sp.alt = 1;
        else if (*f == ' ')
            sp.space = 1;
        else if (*f == '+')
            sp.plus = 1;
        else
            break;
    }
    if (*f == '*') {
        int w = va_arg(*ap, int);
        if (w < 0)
            sp.minus = 1, w = -w;
        sp.width = (size_t)w, f++;
    } else {
        while (*f >= '0' && *f <= '9')
            sp.width = sp.width * 10 + (size_t)(*f++ - '0');
    }
    if (*f == '.') {
        f++;
        if (*f == '*') {
            int p = va_arg(*ap, int);
            sp.prec = p < 0 ? -1 : p, f++;
        } else {
            sp.prec = 0;
            while (*f >= '0' && *f <= '9')
                sp.prec = sp.prec * 10 + (*f++ - '0');
        }
    }
    enum length l = parse_length(&f);
    char conv = *f;
    switch (conv) {
    case 'd':
    case 'i': {
        long long v = arg_signed(ap, l);
        unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        out_int(o, &sp, mag, v < 0, 1, conv);
        break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X':
        out_int(o, &sp, arg_unsigned(ap, l), 0, 0, conv);
        break;
    case 'p': {
        void *p = va_arg(*ap, void *);
        if (!p) {
            out_padded(o, &sp, "(nil)", 5);
        } else {
            struct spec ps = sp;
            ps.alt = 1;
            out_int(o, &ps, (uintptr_t)p, 0, 0, 'x');
        }
        break;
    }
    case 'c': {
        char c = (char)va_arg(*ap, int);
        out_padded(o, &sp, &c, 1);
        break;
    }
    case 's': {
        const char *s = va_arg(*ap, const char *);
        if (!s)
            s = sp.prec < 0 || sp.prec >= 6 ? "(null)" : "";
        size_t k = 0;
        while (s[k] && (sp.prec < 0 || k < (size_t)sp.prec))
            k++;
        out_padded(o, &sp, s, k);
        break;
    }
    case '%':
        out_c(o, '%');
        break;
    default: /* not one of ours: as it is */
        if (!conv)
            return f;
        out_s(o, start, (size_t)(f + 1 - start));
        break;
    }
    return f + 1;
}

size_t sg_vformat(char *out, size_t len, const char *fmt, va_list ap)
{
    struct fmt_out o = { out, len, 0 };
    va_list aq;
    va_copy(aq, ap);
    for (const char *f = fmt; *f;) {
        if (*f != '%') {
            out_c(&o, *f++);
            continue;
        }
        f = one_conversion(&o, f + 1, &aq);
    }
    va_end(aq);
    if (len)
        out[o.n < len ? o.n : len - 1] = '\0';
    return o.n;
}

size_t sg_format(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = sg_vformat(out, len, fmt, ap);
    va_end(ap);
    return n;
}
