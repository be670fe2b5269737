/* The dlsym hook. Runtimes (static and shared cudart, numba's bindings)
 * dlopen libcuda.so.1 and dlsym cuGetProcAddress_v2 from it; handing back
 * syncguard's cuGetProcAddress makes every later driver look-up visible.
 * Other cu* symbols that syncguard wraps are answered with their wrappers. */
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include "syncguard/intercept.h"
#include "syncguard/log.h"

void *sg_real_dlsym_ptr;
void *sg_procaddr_v1_hook(void);
void *sg_procaddr_v2_hook(void);
void sg_procaddr_offer_real(int abi, void *fn);

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

/* Called from the assembly stub below when the real dlsym is not known yet. */
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

/* The stub below, by a name the dynamic linker does not resolve elsewhere
 * (a plain reference to dlsym goes to whichever definition comes first). */
extern char sg_own_dlsym[];

void sg_check_preload_order(void)
{
    static int said;
    void *first = sg_real_dlsym(RTLD_DEFAULT, "dlsym");
    if (first && first != (void *)sg_own_dlsym)
        sg_log_warn_once(&said, "libsyncguard.so comes after a library that defines dlsym in "
                                "LD_PRELOAD: the CUDA runtime's look-ups of the driver, signal "
                                "handlers and system calls may bypass syncguard; put it first "
                                "(the syncguard launcher does)");
}

/* dlsym(RTLD_NEXT, ...) is relative to its caller, which glibc finds from
 * the return address: that look-up must reach the real dlsym by a jump, with
 * the caller's return address untouched, so it is done in assembly. Every
 * other handle goes to sg_dlsym_impl. */
__asm__(".text\n"
        ".globl dlsym\n"
        ".type dlsym, @function\n"
        ".globl sg_own_dlsym\n"
        ".hidden sg_own_dlsym\n"
        "dlsym:\n"
        "sg_own_dlsym:\n"
        "    cmpq $-1, %rdi\n"
        "    jne sg_dlsym_impl\n"
        "    movq sg_real_dlsym_ptr(%rip), %rax\n"
        "    testq %rax, %rax\n"
        "    jz 1f\n"
        "    jmp *%rax\n"
        "1:  pushq %rdi\n"
        "    pushq %rsi\n"
        "    subq $8, %rsp\n"
        "    call sg_resolve_real_dlsym\n"
        "    addq $8, %rsp\n"
        "    popq %rsi\n"
        "    popq %rdi\n"
        "    jmp *%rax\n"
        ".size dlsym, .-dlsym\n");

void *sg_dlsym_impl(void *handle, const char *name);

void *sg_dlsym_impl(void *handle, const char *name)
{
    void *real = sg_real_dlsym(handle, name);
    if (!real || !name || name[0] != 'c' || name[1] != 'u' || sg_in_syncguard)
        return real;
    sg_init();
    if (strcmp(name, "cuGetProcAddress_v2") == 0) {
        sg_procaddr_offer_real(2, real);
        return sg_procaddr_v2_hook();
    }
    if (strcmp(name, "cuGetProcAddress") == 0) {
        sg_procaddr_offer_real(1, real);
        return sg_procaddr_v1_hook();
    }
    void *w = sg_wrapper_for_symbol(name, real);
    return w ? w : real;
}
