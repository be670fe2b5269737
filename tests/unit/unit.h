/* SPDX-License-Identifier: Apache-2.0 */
/* A few lines of TAP for the unit tests: each check prints "ok N - what"
 * or "not ok N - what (file:line)", the plan comes at the end, and the exit
 * status (what automake counts) is 1 if any check failed. */
#ifndef SG_UNIT_H
#define SG_UNIT_H

#include <stdio.h>

static int unit_count, unit_failed;

#define CHECK(cond, what)                                                             \
    do {                                                                              \
        unit_count++;                                                                 \
        if (cond) {                                                                   \
            printf("ok %d - %s\n", unit_count, what);                                 \
        } else {                                                                      \
            printf("not ok %d - %s (%s:%d: %s)\n", unit_count, what, __FILE__, __LINE__, \
                   #cond);                                                            \
            unit_failed++;                                                            \
        }                                                                             \
    } while (0)

static inline int unit_done(void)
{
    printf("1..%d\n", unit_count);
    if (unit_failed)
        printf("# %d of %d checks failed\n", unit_failed, unit_count);
    return unit_failed ? 1 : 0;
}

#endif
