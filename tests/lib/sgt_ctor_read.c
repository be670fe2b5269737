/* SPDX-License-Identifier: Apache-2.0 */
/* A library for robust_dlopen_ctor_{race,ok}: its constructor reads the
 * buffer whose address and size the program put in SGT_CTOR_BUF and
 * SGT_CTOR_WORDS, counting the words that are not SGT_CTOR_WANT, while the
 * dynamic loader runs it from dlopen() with its loader lock held. */
#include <stdint.h>
#include <stdlib.h>

unsigned sgt_ctor_wrong = ~0u;

static unsigned long env_number(const char *name)
{
    const char *v = getenv(name);
    return v ? strtoul(v, NULL, 0) : 0;
}

static __attribute__((noinline)) unsigned ctor_read(const volatile uint32_t *h, unsigned long n,
                                                    uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned long i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

__attribute__((constructor)) static void sgt_ctor(void)
{
    const volatile uint32_t *h = (const volatile uint32_t *)env_number("SGT_CTOR_BUF");
    if (h)
        sgt_ctor_wrong = ctor_read(h, env_number("SGT_CTOR_WORDS"),
                                   (uint32_t)env_number("SGT_CTOR_WANT"));
}
