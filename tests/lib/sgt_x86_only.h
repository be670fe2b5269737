/* SPDX-License-Identifier: Apache-2.0 */
/* A test of x86-64-only behaviour (its instructions in inline assembly: rep
 * string instructions, the trap flag, SSE and x86 addressing forms). On
 * another machine the program is only a skip, with its reason:
 *
 *   #if !defined(__x86_64__)
 *   SGT_X86_ONLY("why")
 *   #else
 *   ... the test ...
 *   #endif
 *
 * run-test.sh counts exit 77 with a "SKIP: " line as a skip. */
#ifndef SGT_X86_ONLY_H
#define SGT_X86_ONLY_H

#include <stdio.h>

#define SGT_X86_ONLY(why)                                   \
    int main(void)                                          \
    {                                                       \
        printf("SKIP: x86-64 only: %s\n", why);             \
        return 77;                                          \
    }

#endif
