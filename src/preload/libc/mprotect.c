/* SPDX-License-Identifier: Apache-2.0 */
/* The mprotect shim. A program may protect its own pinned memory; syncguard
 * must then keep that protection when it opens a guard, and must not lose a
 * guard to the program's call. So on pinned memory the program's request is
 * applied, remembered as the pages' normal protection if the kernel took
 * it, and the guards of copies still in flight are applied again on top.
 * Elsewhere it is the plain system call. */
#include "config.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"
#include "guard/guard.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/shim.h"

SG_SHIM(int, mprotect, (void *addr, size_t len, int prot))
{
    uintptr_t lo = (uintptr_t)addr, hi = sg_page_up(lo + len);
    if (sg_in_syncguard || !sg_initialized() || !sg_pinned_any() || len == 0 ||
        !sg_pinned_touches(sg_page_down(lo), hi))
        return (int)syscall(SYS_mprotect, lo, len, prot); /* not syncguard's to count */
    sg_lock(&sg_model_lock);
    int rc = sg_protect(lo, len, prot);
    int saved_errno = errno;
    /* A call the kernel refused changed nothing: nothing to keep. */
    if (rc == 0) {
        sg_guard_program_prot(lo, hi, prot);
        if (sg_observe_needed())
            sg_guard_update(lo, hi);
    }
    sg_unlock(&sg_model_lock);
    errno = saved_errno;
    return rc;
}
