/* Page guarding: host pages of in-flight copies get PROT_NONE (D2H
 * destinations) or PROT_READ (H2D sources) until the host observes
 * completion. Async-signal-safe: no allocation, only mprotect. */
#ifndef SYNCGUARD_GUARD_H
#define SYNCGUARD_GUARD_H

#include <stddef.h>
#include <stdint.h>

extern uintptr_t sg_page_size;

static inline uintptr_t sg_page_down(uintptr_t a)
{
    return a & ~(sg_page_size - 1);
}
static inline uintptr_t sg_page_up(uintptr_t a)
{
    return (a + sg_page_size - 1) & ~(sg_page_size - 1);
}

/* Gives every page of [lo, hi) (page aligned) the protection that the
 * active copies over it require, or its normal protection if none does.
 * Adjacent pages that end up alike are changed by one mprotect call.
 * With sg_model_lock held. Returns 0, or -1 if an mprotect failed. */
int sg_guard_update(uintptr_t lo, uintptr_t hi);

#endif
