/* SPDX-License-Identifier: Apache-2.0 */
/* The real dlsym and the next definitions of the C library functions that
 * syncguard's shims hide (its dlsym stub is in preload/libc/dlsym.c). */
#include "config.h"

#include <dlfcn.h>

#include "base/dl.h"
#include "base/log.h"
#include "base/self.h"

void *sg_real_dlsym_ptr;

/* libc itself: where the real functions are when a library that defines
 * them (libc.so.6 named in LD_PRELOAD, say) comes before syncguard in the
 * search order, so that RTLD_NEXT finds nothing after syncguard. */
static void *libc_handle(void)
{
    static void *handle;
    void *h = __atomic_load_n(&handle, __ATOMIC_ACQUIRE);
    if (!h) {
        h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
        __atomic_store_n(&handle, h, __ATOMIC_RELEASE);
    }
    return h;
}

static void *versioned_dlsym(void *handle)
{
    void *fn = dlvsym(handle, "dlsym", "GLIBC_2.34");
    return fn ? fn : dlvsym(handle, "dlsym", "GLIBC_2.2.5");
}

/* Also called from the dlsym stub when the real dlsym is not known yet. */
void *sg_resolve_real_dlsym(void)
{
    void *fn = versioned_dlsym(RTLD_NEXT);
    if (!fn && libc_handle())
        fn = versioned_dlsym(libc_handle());
    __atomic_store_n(&sg_real_dlsym_ptr, fn, __ATOMIC_RELEASE);
    return fn;
}

void *sg_real_dlsym(void *handle, const char *name)
{
    void *fn = __atomic_load_n(&sg_real_dlsym_ptr, __ATOMIC_ACQUIRE);
    if (!fn)
        fn = sg_resolve_real_dlsym();
    return ((void *(*)(void *, const char *))fn)(handle, name);
}

void *sg_real_next(const char *name)
{
    void *fn = sg_real_dlsym(RTLD_NEXT, name);
    if (!fn && libc_handle())
        fn = sg_real_dlsym(libc_handle(), name);
    return fn;
}

void *sg_real_next_cached(void **slot, const char *name)
{
    void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!fn) {
        fn = sg_real_next(name);
        __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

/* The linker's bounds of the section sg_next (base/dl.h). */
extern const struct sg_next_slot __start_sg_next[] __attribute__((weak, visibility("hidden")));
extern const struct sg_next_slot __stop_sg_next[] __attribute__((weak, visibility("hidden")));

void sg_real_next_resolve_all(void)
{
    for (const struct sg_next_slot *s = __start_sg_next; s && s < __stop_sg_next; s++)
        sg_real_next_cached(s->slot, s->name);
}

void sg_check_preload_order(void)
{
    /* The first dlsym in the search order is syncguard's own stub (the
     * only dlsym in libsyncguard.so) unless a library before it defines
     * one. */
    void *first = sg_real_dlsym(RTLD_DEFAULT, "dlsym");
    if (first && !sg_self_contains((uintptr_t)first))
        SG_WARN_ONCE("libsyncguard.so comes after a library that defines dlsym in LD_PRELOAD: "
                     "the CUDA runtime's look-ups of the driver, signal handlers and system "
                     "calls may bypass syncguard; put it first (the syncguard launcher does)\n");
}
