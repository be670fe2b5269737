/* SPDX-License-Identifier: Apache-2.0 */
/* The running kernel's version, read from its release string. */
#include "config.h"

#include "base/kernel.h"

#define VERSION_MAX 100000u /* more digits than any release has: not a version */

/* A decimal number at *s (at least one digit), *s moved past it; -1 if
 * none or too large. */
static int number(const char **s, unsigned *out)
{
    unsigned v = 0;
    const char *p = *s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned)(*p - '0');
        if (v >= VERSION_MAX)
            return -1;
    }
    *s = p, *out = v;
    return 0;
}

int sg_parse_kernel_release(const char *release, unsigned *major, unsigned *minor)
{
    const char *p = release;
    unsigned a, b;
    if (!p || number(&p, &a) != 0 || *p++ != '.' || number(&p, &b) != 0)
        return -1;
    *major = a, *minor = b;
    return 0;
}

int sg_kernel_cow_parts_pins(unsigned major, unsigned minor)
{
    return major == 5 && minor >= 9 && minor <= 18;
}
