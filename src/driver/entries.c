/* SPDX-License-Identifier: Apache-2.0 */
/* The entry-point table, generated from entrypoints.def, and the real
 * functions behind it: the answers of the real cuGetProcAddress (recorded
 * by preload/cuda/procaddr.c), or else dlsym on libcuda.so.1. */
#include "config.h"

#include <stdatomic.h>
#include <stdint.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/self.h"
#include "driver/driver.h"
#include "driver/entries.h"

const struct sg_entry sg_entries[SG_E_COUNT] = {
#define SG_ENTRY(base, symbol, version, per_thread) \
    [SG_E_##symbol] = { #base, #symbol, version, per_thread },
#include "driver/entrypoints.def"
#undef SG_ENTRY
};

static void *_Atomic real_fns[SG_E_COUNT];

void sg_real_offer(enum sg_entry_id id, void *fn)
{
    if (!fn || sg_self_contains((uintptr_t)fn))
        return;
    void *expected = NULL;
    atomic_compare_exchange_strong(&real_fns[id], &expected, fn);
}

void *sg_real(enum sg_entry_id id)
{
    void *fn = atomic_load_explicit(&real_fns[id], memory_order_acquire);
    if (SG_LIKELY(fn != NULL))
        return fn;
    void *lib = sg_libcuda();
    if (lib)
        sg_real_offer(id, sg_real_dlsym(lib, sg_entries[id].symbol));
    return atomic_load(&real_fns[id]);
}
