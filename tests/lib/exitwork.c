/* SPDX-License-Identifier: Apache-2.0 */
/* libexitwork: a shared library with exit work of its own, linked into
 * robust_exit_work_*: an atexit handler registered by its constructor and
 * a destructor, each of which says on stdout that it ran (a library that
 * flushes its data at exit). The program links it as a DT_NEEDED library,
 * so the loader finalizes it after the preloaded libsyncguard.so. */
#include <unistd.h>

#include "exitwork.h"

static void say(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w <= 0)
            return;
        s += w, n -= (size_t)w;
    }
}

#define SAY(lit) say(lit, sizeof lit - 1)

static void atexit_work(void)
{
    SAY("exit work: the library's atexit handler ran\n");
}

__attribute__((constructor)) static void exitwork_init(void)
{
    atexit(atexit_work);
}

__attribute__((destructor)) static void exitwork_fini(void)
{
    SAY("exit work: the library's destructor ran\n");
}

int sgt_exit_work_linked(void)
{
    return 1;
}
