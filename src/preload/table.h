/* SPDX-License-Identifier: Apache-2.0 */
/* The wrappers of the entry points (preload/cuda/table.c), kept free of
 * cuda.h like driver/entries.h: the table knows the wrappers by address. */
#ifndef SG_PRELOAD_TABLE_H
#define SG_PRELOAD_TABLE_H

#include "driver/entries.h"

/* The wrapper of each entry, by entry id. */
extern void *const sg_entry_wrappers[SG_E_COUNT];

#endif
