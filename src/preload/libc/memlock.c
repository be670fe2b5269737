/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the calls that make the kernel fault pages in without reading
 * or writing their bytes: mlock, mlock2 and madvise(MADV_POPULATE_READ,
 * MADV_POPULATE_WRITE). On a guarded page they fail (ENOMEM, EINVAL)
 * where without syncguard they succeed, so the pages are opened for the
 * call (fault/access.c, sg_access_touch_begin).
 *
 * madvise is also where syncguard's huge blocks (huge_pinned) must answer
 * as the driver's pinned allocation would: advice that drops a mapping's
 * pages (MADV_DONTNEED, MADV_DONTNEED_LOCKED, MADV_FREE, MADV_REMOVE)
 * succeeds on anonymous memory, and on a block it would give the program
 * fresh zeroed pages while the device kept writing the pinned ones, its
 * data lost. The driver's mapping is taken to refuse it with EINVAL, as
 * the kernel refuses a locked or special mapping (assumed, not measured on
 * a GPU yet): so is a call on any page of a block, which stays as it was. */
#include "config.h"

#include <errno.h>
#include <sys/mman.h>

#include "base/dl.h"
#include "base/page.h"
#include "fault/access.h"
#include "model/model.h"
#include "preload/shim.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif

SG_SHIM(int, mlock, (const void *addr, size_t len))
{
    struct sg_access_window w = { .n = 0 };
    sg_access_touch_begin(&w, (uintptr_t)addr, len);
    int r = SG_NEXT(mlock)(addr, len);
    sg_access_end(&w);
    return r;
}

SG_SHIM(int, mlock2, (const void *addr, size_t len, unsigned int flags))
{
    struct sg_access_window w = { .n = 0 };
    sg_access_touch_begin(&w, (uintptr_t)addr, len);
    int r = SG_NEXT(mlock2)(addr, len, flags);
    sg_access_end(&w);
    return r;
}

/* Whether the advice takes [addr, addr+len) from one of syncguard's huge
 * blocks: advice that drops pages, on a page of one. */
static int drops_huge_pages(uintptr_t addr, size_t len, int advice)
{
    if (advice != MADV_DONTNEED && advice != MADV_DONTNEED_LOCKED && advice != MADV_FREE &&
        advice != MADV_REMOVE)
        return 0;
    uintptr_t hi = sg_page_up(addr + len);
    return len && hi > addr && sg_pinned_touches_huge(addr, hi);
}

SG_SHIM(int, madvise, (void *addr, size_t len, int advice))
{
    if (drops_huge_pages((uintptr_t)addr, len, advice)) {
        errno = EINVAL;
        return -1;
    }
    if (advice != MADV_POPULATE_READ && advice != MADV_POPULATE_WRITE)
        return SG_NEXT(madvise)(addr, len, advice);
    struct sg_access_window w = { .n = 0 };
    sg_access_touch_begin(&w, (uintptr_t)addr, len);
    int r = SG_NEXT(madvise)(addr, len, advice);
    sg_access_end(&w);
    return r;
}
