/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the calls that make the kernel fault pages in without reading
 * or writing their bytes: mlock, mlock2 and madvise(MADV_POPULATE_READ,
 * MADV_POPULATE_WRITE). On a guarded page they fail (ENOMEM, EINVAL)
 * where without syncguard they succeed, so the pages are opened for the
 * call (fault/access.c, sg_access_touch_begin). */
#include "config.h"

#include <sys/mman.h>

#include "base/dl.h"
#include "fault/access.h"
#include "preload/shim.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
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

SG_SHIM(int, madvise, (void *addr, size_t len, int advice))
{
    if (advice != MADV_POPULATE_READ && advice != MADV_POPULATE_WRITE)
        return SG_NEXT(madvise)(addr, len, advice);
    struct sg_access_window w = { .n = 0 };
    sg_access_touch_begin(&w, (uintptr_t)addr, len);
    int r = SG_NEXT(madvise)(addr, len, advice);
    sg_access_end(&w);
    return r;
}
