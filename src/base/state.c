/* SPDX-License-Identifier: Apache-2.0 */
/* The process-wide and per-thread state declared in common.h. */
#include "config.h"

#include "base/common.h"

SG_TLS int sg_in_syncguard;
atomic_int sg_init_state;

int sg_initialized(void)
{
    return atomic_load_explicit(&sg_init_state, memory_order_acquire) == SG_INIT_DONE;
}
