/* SPDX-License-Identifier: Apache-2.0 */
/* The driver entry points syncguard wraps (entrypoints.def), and where
 * their real implementations are kept. Kept free of cuda.h. The wrappers'
 * addresses are the preload layer's (preload/cuda/table.c). */
#ifndef SG_DRIVER_ENTRIES_H
#define SG_DRIVER_ENTRIES_H

#include "base/lock.h"

enum sg_entry_id {
#define SG_ENTRY(base, symbol, version, per_thread) SG_E_##symbol,
#include "driver/entrypoints.def"
#undef SG_ENTRY
    SG_E_COUNT
};

struct sg_entry {
    const char *base;
    const char *symbol;
    int version;
    int per_thread;
};

extern const struct sg_entry sg_entries[SG_E_COUNT];

/* The real function of an entry, resolved lazily from libcuda.so.1 when no
 * cuGetProcAddress answer has provided it yet; NULL if the driver lacks it. */
void *sg_real(enum sg_entry_id id);
/* Records the real function of an entry (the first answer wins); refuses
 * pointers into syncguard itself, which would make a wrapper call itself. */
void sg_real_offer(enum sg_entry_id id, void *fn);

/* The real driver function of an entry's symbol, typed as the symbol (its
 * prototype is cuda.h's, where this is expanded): the driver's own answer,
 * or looked up in libcuda.so.1 on first use (NULL when the driver lacks
 * it). */
#define SG_REAL(symbol) ((__typeof__(&symbol))sg_real(SG_E_##symbol))

/* Calls the real implementation of the entry's symbol, as a shim forwards
 * the program's call (preload/shim.h); CUDA_ERROR_NOT_FOUND when the
 * driver lacks it. Counted in sg_in_driver (base/lock.h). */
#define SG_FORWARD(symbol, ...)                                                   \
    ({                                                                            \
        __typeof__(&symbol) real_ = SG_REAL(symbol);                              \
        real_ ? SG_DRIVER_CALL(real_(__VA_ARGS__)) : CUDA_ERROR_NOT_FOUND;        \
    })

#endif
