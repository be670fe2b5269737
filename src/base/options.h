/* SPDX-License-Identifier: Apache-2.0 */
/* Options, parsed once from SYNCGUARD_OPTIONS (see options.def). */
#ifndef SG_BASE_OPTIONS_H
#define SG_BASE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum sg_mode { SG_MODE_REPORT = 0, SG_MODE_ABORT = 1, SG_MODE_SYNC = 2 };

struct sg_options {
#define SG_OPT_ENUM(name, def, choices, help) int name;
#define SG_OPT_BOOL(name, def, help) int name;
#define SG_OPT_INT(name, def, lo, hi, help) long name;
#define SG_OPT_STR(name, def, help) const char *name;
#include "base/options.def"
#undef SG_OPT_ENUM
#undef SG_OPT_BOOL
#undef SG_OPT_INT
#undef SG_OPT_STR
};

extern struct sg_options sg_opt;

/* Resets *o to the defaults, then applies "k=v:k=v". On error returns -1 and
 * writes a message naming the offending key or value into err. */
int sg_options_parse(const char *text, struct sg_options *o, char *err, size_t errlen);
void sg_options_print_help(FILE *out, const struct sg_options *o);

#endif
