/* SPDX-License-Identifier: Apache-2.0 */
/* Finding the real definitions of functions that syncguard's own hide: the
 * real dlsym (which the preload layer replaces) and the next definition
 * of a C library function. */
#ifndef SG_BASE_DL_H
#define SG_BASE_DL_H

/* The real dlsym, which syncguard's own dlsym hides. */
void *sg_real_dlsym(void *handle, const char *name);
/* Looks up the real dlsym (glibc's versioned one) and remembers it in
 * sg_real_dlsym_ptr; the preload layer's dlsym stub jumps through that. */
void *sg_resolve_real_dlsym(void);
extern void *sg_real_dlsym_ptr;
/* The definition of a C library function that syncguard's own hides: the
 * next one after syncguard, else libc's own (when a library defining it
 * comes before syncguard in LD_PRELOAD). */
void *sg_real_next(const char *name);

/* The next definition of a function, looked up once into *slot: the lazy
 * look-up behind every libc shim (preload/shim.h). */
void *sg_real_next_cached(void **slot, const char *name);

/* A place that SG_NEXT looks a function up for, collected by the linker
 * into the section sg_next so that sg_real_next_resolve_all can fill them
 * all at start-up. */
struct sg_next_slot {
    void **slot;
    const char *name;
};

/* The next definition of the function name, typed as the declaration of
 * name in scope (syncguard's own shim of it), looked up once per place it
 * is used: SG_NEXT(read)(fd, buf, n). NULL when there is none. Every such
 * place is filled at start-up (sg_real_next_resolve_all): a look-up is a
 * dlsym call, which takes the loader's lock, and a shim called later by
 * syncguard's reporter thread while the thread it reports on holds that
 * lock (a race in a dlopen()ed library's constructor) would wait for a
 * thread that waits for the report. The lazy look-up stays for calls made
 * before start-up ends. */
#define SG_NEXT(name)                                                             \
    ({                                                                            \
        static void *sg_next_;                                                    \
        static const struct sg_next_slot sg_next_entry_                           \
            __attribute__((section("sg_next"), used)) = { &sg_next_, #name };     \
        (void)sg_next_entry_;                                                     \
        (__typeof__(&name))sg_real_next_cached(&sg_next_, #name);                 \
    })

/* Fills every SG_NEXT place (from sg_init). */
void sg_real_next_resolve_all(void);

/* Warns once when syncguard is not first in the search order for dlsym
 * (after sg_self_init). */
void sg_check_preload_order(void);

#endif
