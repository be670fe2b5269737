/* SPDX-License-Identifier: Apache-2.0 */
/* x86-64 (included by fault/arch.h only). */
#ifndef SG_FAULT_ARCH_X86_64_H
#define SG_FAULT_ARCH_X86_64_H

#include <setjmp.h>
#include <stdint.h>
#include <ucontext.h>

#define TRAP_FLAG 0x100

/* The kernel can single-step the thread (the trap flag): step.c. */
#define SG_ARCH_CAN_STEP 1

static inline uintptr_t sg_arch_pc(const ucontext_t *uc)
{
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

/* The page-fault error code: bit 1 set for a write. */
static inline int sg_arch_fault_is_write(const ucontext_t *uc)
{
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
}

static inline int sg_arch_trap_flag(const ucontext_t *uc)
{
    return (uc->uc_mcontext.gregs[REG_EFL] & TRAP_FLAG) != 0;
}

static inline void sg_arch_set_trap_flag(ucontext_t *uc, int on)
{
    if (on)
        uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
    else
        uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
}

/* The stack pointer saved in a jmp_buf. glibc mangles it: rotated left by
 * 17 after an xor with the thread's pointer guard. */
static inline uintptr_t sg_arch_jmpbuf_sp(const struct __jmp_buf_tag *env)
{
    uintptr_t v = (uintptr_t)env->__jmpbuf[6], guard;
    __asm__("mov %%fs:0x30, %0" : "=r"(guard));
    return ((v >> 17) | (v << 47)) ^ guard;
}

#endif
