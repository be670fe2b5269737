/* SPDX-License-Identifier: Apache-2.0 */
/* The learn floor's ground: the Compute Sanitizer API's function table
 * (filled by learn/sanitizer.c once the library is loaded), the floor's
 * lock, and whether learning is on. */
#include "config.h"

#include <stdatomic.h>

#include "learn/learn_int.h"

sg_lock_t sg_learn_lock = SG_LOCK_INIT;
struct sg_san_api sg_san;
static atomic_int active;

const char *sg_san_error(sg_san_result r)
{
    const char *s = NULL;
    if (sg_san.sanitizerGetResultString && sg_san.sanitizerGetResultString(r, &s) == SG_SAN_SUCCESS && s)
        return s;
    return "unknown error";
}

int sg_learn_active(void)
{
    return atomic_load_explicit(&active, memory_order_acquire);
}

void sg_learn_set_active(void)
{
    atomic_store_explicit(&active, 1, memory_order_release);
}
