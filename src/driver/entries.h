/* SPDX-License-Identifier: Apache-2.0 */
/* The driver entry points syncguard wraps (entrypoints.def), and where
 * their real implementations are kept. Kept free of cuda.h. The wrappers'
 * addresses are the preload layer's (preload/cuda/table.c). */
#ifndef SG_DRIVER_ENTRIES_H
#define SG_DRIVER_ENTRIES_H

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

#endif
