/* The table of wrapped entry points (src/intercept/entrypoints.def).
 * Kept free of cuda.h: the table refers to wrappers by address only. */
#ifndef SYNCGUARD_ENTRIES_H
#define SYNCGUARD_ENTRIES_H

enum sg_entry_id {
#define SG_ENTRY(base, symbol, version, per_thread) SG_E_##symbol,
#include "../../src/intercept/entrypoints.def"
#undef SG_ENTRY
    SG_E_COUNT
};

struct sg_entry {
    const char *base;
    const char *symbol;
    int version;
    int per_thread;
    void *wrapper;
};

extern const struct sg_entry sg_entries[SG_E_COUNT];

#endif
