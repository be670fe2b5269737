/* SPDX-License-Identifier: Apache-2.0 */
/* Accesses that never fault: a system call given a buffer, a free of pinned
 * memory (src/fault/access.c). */
#ifndef SG_FAULT_ACCESS_H
#define SG_FAULT_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define SG_ACCESS_WINDOWS 8

/* Pages a call holds open while it runs. */
struct sg_access_window {
    int n;
    uintptr_t lo[SG_ACCESS_WINDOWS], hi[SG_ACCESS_WINDOWS];
};

/* Before a call that reads (is_write 0) or writes its buffer: conflicts
 * with pending copies are resolved (reported, waited for); pages the buffer
 * shares with other copies are opened into w until sg_access_end. Keeps
 * errno. */
void sg_access_begin(struct sg_access_window *w, uintptr_t buf, size_t len, int is_write);
/* Before a call that needs the pages of [buf, buf+len) accessible but
 * reads or writes none of their bytes (mlock, MADV_POPULATE_WRITE): the
 * guarded ones are opened for it, whatever copies they hold, no report
 * (others' accesses meanwhile go unseen: a missed race, never a false
 * one). sg_access_end closes them. */
void sg_access_touch_begin(struct sg_access_window *w, uintptr_t buf, size_t len);
/* After the call: closes what sg_access_begin opened. Keeps errno. */
void sg_access_end(struct sg_access_window *w);
/* Before pinned memory goes back to the driver. */
void sg_access_free(uintptr_t lo, size_t len);
/* Before the driver takes the pinned range at p back: every copy still in
 * flight on it is reported and waited for, and no page of it stays guarded
 * (unless the call comes from inside syncguard, entered 0); the range is
 * no longer pinned. Returns the address to give the driver back: its own,
 * not the one isolate_pinned handed out. The range (model.h) in *out when
 * it was pinned, else all 0. */
void *sg_access_unpin(void *p, int entered, struct sg_pin *out);

#endif
