/* SPDX-License-Identifier: Apache-2.0 */
/* Signal-safe formatting: syncguard's own, for the log, the reports and the
 * fault handler (no allocation, no lock, no stdio). */
#ifndef SG_BASE_FORMAT_H
#define SG_BASE_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* v in base (2 to 16), NUL-terminated; returns its length. */
size_t sg_fmt_u64(char *out, unsigned long long v, int base);
/* vsnprintf for what syncguard prints, async-signal-safe: the conversions
 * d i u o x X c s p %, the flags - 0 # space +, widths and precisions (also
 * as *), the lengths hh h l ll z j t; no floating point. What it writes is
 * byte for byte what glibc's vsnprintf writes (unit/t-log checks it). Writes
 * at most len bytes, NUL included; returns the length the whole would have. */
size_t sg_vformat(char *out, size_t len, const char *fmt, va_list ap);
/* sg_vformat with its arguments. */
size_t sg_format(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
