/* The entry-point table, generated from entrypoints.def. Wrappers are
 * declared here by name only: cuda.h's prototypes would clash with a
 * generic declaration, and the table needs nothing but their addresses. */
#include "config.h"

#include "syncguard/entries.h"

#define SG_ENTRY(base, symbol, version, per_thread) extern char symbol[];
#include "entrypoints.def"
#undef SG_ENTRY

const struct sg_entry sg_entries[SG_E_COUNT] = {
#define SG_ENTRY(base, symbol, version, per_thread) \
    [SG_E_##symbol] = { #base, #symbol, version, per_thread, (void *)symbol },
#include "entrypoints.def"
#undef SG_ENTRY
};
