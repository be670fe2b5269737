/* SPDX-License-Identifier: Apache-2.0 */
/* Which active copies lie on a range of pages: an interval index over the
 * copy table's slots (src/model/copy_index.c), so that a look-up costs the
 * logarithm of the number of copies in flight, not their number. Every
 * system call given a buffer asks it; with thousands of copies pending, a
 * scan of the table made unrelated I/O many times slower. Under
 * sg_model_lock, like the table; nothing here allocates (the fault handler
 * uses it). */
#ifndef SG_MODEL_COPY_INDEX_H
#define SG_MODEL_COPY_INDEX_H

#include <stdint.h>
#include "model/model.h"

/* Maps room for nslots slots; once, at start-up. */
int sg_copy_index_init(uint32_t nslots);
/* Slot enters the index with the pages [lo, hi); it is not in it yet. */
void sg_copy_index_insert(uint32_t slot, uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
/* Slot leaves the index. */
void sg_copy_index_remove(uint32_t slot) SG_REQUIRES(sg_model_lock);
/* Forgets every slot (a forked child's table). */
void sg_copy_index_clear(void);
/* Calls fn for every slot whose pages meet [lo, hi), in no set order.
 * fn must not change the index. */
void sg_copy_index_each(uintptr_t lo, uintptr_t hi, void (*fn)(uint32_t slot, void *arg),
                        void *arg) SG_REQUIRES(sg_model_lock);
/* The tree's height: what a query's walk is bounded by (tests). */
uint32_t sg_copy_index_height(void);

#endif
