/* SPDX-License-Identifier: Apache-2.0 */
/* The wrappers of the entry-point table (driver/entrypoints.def), by id.
 * Wrappers are declared here by name only: cuda.h's prototypes would clash
 * with a generic declaration, and the table needs nothing but their
 * addresses. */
#include "config.h"

#include "driver/entries.h"
#include "preload/table.h"

#define SG_ENTRY(base, symbol, version, per_thread) extern char symbol[];
#include "driver/entrypoints.def"
#undef SG_ENTRY

void *const sg_entry_wrappers[SG_E_COUNT] = {
#define SG_ENTRY(base, symbol, version, per_thread) [SG_E_##symbol] = (void *)symbol,
#include "driver/entrypoints.def"
#undef SG_ENTRY
};
