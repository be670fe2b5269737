/* SPDX-License-Identifier: Apache-2.0 */
/* Page guarding: host pages of in-flight copies get PROT_NONE (D2H
 * destinations) or PROT_READ (H2D sources) until the host observes
 * completion. Async-signal-safe: no allocation, only mprotect. */
#ifndef SG_GUARD_GUARD_H
#define SG_GUARD_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "base/page.h"
#include "model/model.h"

/* Gives every page of [lo, hi) (page aligned) the protection that the
 * active copies over it require, or its normal protection if none does.
 * Adjacent pages that end up alike are changed by one mprotect call.
 * With sg_model_lock held. Returns 0, or -1 if an mprotect failed. */
int sg_guard_update(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);

/* The program's own mprotect(lo, len, prot) of pinned memory: applied,
 * kept as the pages' normal protection, guards put back on top. Takes
 * sg_model_lock; returns what mprotect returns, errno kept from it. */
int sg_guard_program_mprotect(uintptr_t lo, size_t len, int prot) SG_EXCLUDES(sg_model_lock);

/* mprotect as a system call: neither syncguard's own mprotect shim nor
 * anything a signal handler must avoid. */
int sg_protect(uintptr_t lo, size_t len, int prot);

/* Counts sg_protect calls: a fault that no guard explains is stale (the
 * page was opened after it) only if protections changed since. */
unsigned long sg_protect_epoch(void);

/* ---- guard/maps.c: the limit on mappings, with sg_model_lock held ---- */
/* Reads the limit (map_count_limit, else vm.max_map_count); from sg_init. */
void sg_maps_init(void);
long sg_maps_limit(void);
/* Whether a new guard leaves the program its reserve of mappings; counts
 * the copies that stay unguarded (guards_skipped_maps). */
int sg_maps_room_for_guard(void) SG_REQUIRES(sg_model_lock);
/* Memory the program registers keeps the protections it had, mapping by
 * mapping: those other than read-write are recorded as the program's own
 * ([lo, hi) page aligned; normal context, it reads /proc/self/maps). */
void sg_maps_record_prots(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);

/* ---- guard/normal.c, with sg_model_lock held ---- */
/* A page's protection when no copy restricts it. */
int sg_guard_normal_prot(uintptr_t page) SG_REQUIRES(sg_model_lock);
/* The program set prot on [lo, hi) (pinned memory, page aligned): keep
 * it, over whatever it asked for there before. */
void sg_guard_program_prot(uintptr_t lo, uintptr_t hi, int prot) SG_REQUIRES(sg_model_lock);
/* What the program itself last set on page with mprotect, -1 if nothing;
 * without the lock, for a fault while this thread holds it (a best guess
 * if the thread was changing the list: the array is fixed, the memory
 * always valid). */
int sg_guard_program_prot_unlocked(uintptr_t page);
/* Pages holding a synchronization word (futex): guarded at most read-only
 * (normal.c says why). Learned from an atomic that faulted there. */
void sg_guard_sync_page(uintptr_t page) SG_REQUIRES(sg_model_lock);
int sg_guard_is_sync_page(uintptr_t page) SG_REQUIRES(sg_model_lock);
/* [lo, hi) is no longer pinned: forget what the program asked for on the
 * pages wholly inside it. */
void sg_guard_forget_program_prot(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
/* Pages held open for a system call (pages.c): opened (and unprotected,
 * when some are guarded now; else only kept open: no copy guarded later
 * closes them) or closed (and protected again) by the window set below;
 * open returns -1 when no window is left. */
int sg_guard_window_open(uintptr_t lo, uintptr_t hi, int guarded) SG_REQUIRES(sg_model_lock);
void sg_guard_window_close(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
/* The window set (normal.c): add returns 1 for a new window, 0 for one
 * held once more, -1 when full; remove returns 1 when the last holder of
 * a window let it go. */
int sg_guard_window_add(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
int sg_guard_window_remove(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);
int sg_guard_in_window(uintptr_t page) SG_REQUIRES(sg_model_lock);
/* Calls add for each edge of a program protection or window in [lo, hi). */
void sg_guard_edges(uintptr_t lo, uintptr_t hi, void (*add)(void *, uintptr_t), void *arg)
    SG_REQUIRES(sg_model_lock);
void sg_guard_after_fork_child(void);

#endif
