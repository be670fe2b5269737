/* SPDX-License-Identifier: Apache-2.0 */
/* The mprotect shim: a call on pinned memory is the program protecting its
 * own pages, which syncguard must keep (guard/pages.c); elsewhere it is the
 * plain system call. */
#include "config.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "guard/guard.h"
#include "model/model.h"
#include "preload/shim.h"

SG_SHIM(int, mprotect, (void *addr, size_t len, int prot))
{
    uintptr_t lo = (uintptr_t)addr, hi = sg_page_up(lo + len);
    if (sg_in_syncguard || !sg_initialized() || !sg_pinned_any() || len == 0 ||
        !sg_pinned_touches(sg_page_down(lo), hi))
        return (int)syscall(SYS_mprotect, lo, len, prot); /* not syncguard's to count */
    return sg_guard_program_mprotect(lo, len, prot);
}
