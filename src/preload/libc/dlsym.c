/* SPDX-License-Identifier: Apache-2.0 */
/* The dlsym hook. Runtimes (static and shared cudart, numba's bindings)
 * dlopen libcuda.so.1 and dlsym cuGetProcAddress_v2 from it; handing back
 * syncguard's cuGetProcAddress makes every later driver look-up visible.
 * Other cu* symbols that syncguard wraps are answered with their wrappers. */
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include "base/dl.h"
#include "base/log.h"
#include "preload/shim.h"

/* dlsym(RTLD_NEXT, ...) is relative to its caller, which glibc finds from
 * the return address: that look-up must reach the real dlsym by a jump, with
 * the caller's return address untouched, so it is done in assembly. Every
 * other handle goes to sg_dlsym_impl. The return address is the caller's
 * (x86-64: on the stack; aarch64: in x30) when the real dlsym is entered. */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl dlsym\n"
        ".type dlsym, @function\n"
        "dlsym:\n"
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
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl dlsym\n"
        ".type dlsym, %function\n"
        "dlsym:\n"
        "    cmn x0, #1\n"
        "    b.eq 2f\n"
        "    b sg_dlsym_impl\n"
        "2:  adrp x16, sg_real_dlsym_ptr\n"
        "    ldr x16, [x16, :lo12:sg_real_dlsym_ptr]\n"
        "    cbz x16, 1f\n"
        "    br x16\n"
        "1:  stp x29, x30, [sp, #-32]!\n"
        "    mov x29, sp\n"
        "    stp x0, x1, [sp, #16]\n"
        "    bl sg_resolve_real_dlsym\n"
        "    mov x16, x0\n"
        "    ldp x0, x1, [sp, #16]\n"
        "    ldp x29, x30, [sp], #32\n"
        "    br x16\n"
        ".size dlsym, .-dlsym\n");
#endif

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
