/* SPDX-License-Identifier: Apache-2.0 */
/* aarch64 (included by fault/arch.h only). The kernel puts the fault's
 * syndrome (ESR_EL1) in an esr_context record among the records of the
 * frame's __reserved area; its WnR bit says whether a data abort was a
 * write. A user-space thread cannot single-step itself (no trap flag; the
 * kernel's single-step is ptrace's): what emulation does not cover is
 * settled instead (handler.c). */
#ifndef SG_FAULT_ARCH_AARCH64_H
#define SG_FAULT_ARCH_AARCH64_H

#include <asm/sigcontext.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <ucontext.h>

#include "fault/emulate.h"

#define SG_ARCH_CAN_STEP 0

static inline uintptr_t sg_arch_pc(const ucontext_t *uc)
{
    return (uintptr_t)uc->uc_mcontext.pc;
}

/* The frame's record with this magic (fpsimd_context, esr_context), or
 * NULL: the records follow each other in __reserved, a zero one ends them. */
static inline const struct _aarch64_ctx *sg_arch_record(const ucontext_t *uc, uint32_t magic)
{
    const unsigned char *p = (const unsigned char *)uc->uc_mcontext.__reserved;
    const unsigned char *end = p + sizeof uc->uc_mcontext.__reserved;
    while (p + sizeof(struct _aarch64_ctx) <= end) {
        const struct _aarch64_ctx *h = (const struct _aarch64_ctx *)p;
        if (h->magic == 0 || h->size < sizeof *h || h->size > (size_t)(end - p))
            return NULL;
        if (h->magic == magic)
            return h;
        p += h->size;
    }
    return NULL;
}

#define ESR_EC_SHIFT 26
#define ESR_EC_DABT_LOW 0x24 /* a data abort from EL0 */
#define ESR_WNR (1u << 6)

/* WnR from the kernel's record; without one (qemu-user writes none), the
 * decoded instruction's direction; an instruction the decoder does not
 * know counts as a read (at worst a missed race on a read-only guard,
 * never a false one: a read-only guard never faults on a read). */
static inline int sg_arch_fault_is_write(const ucontext_t *uc)
{
    const struct esr_context *esr = (const void *)sg_arch_record(uc, ESR_MAGIC);
    if (esr && (esr->esr >> ESR_EC_SHIFT) == ESR_EC_DABT_LOW)
        return (esr->esr & ESR_WNR) != 0;
    struct sg_mem_access a;
    return sg_emulate_decode(uc, &a) && a.is_write;
}

static inline int sg_arch_trap_flag(const ucontext_t *uc)
{
    (void)uc;
    return 0;
}

static inline void sg_arch_set_trap_flag(ucontext_t *uc, int on)
{
    (void)uc, (void)on;
}

/* The stack pointer saved in a jmp_buf (its slot 13). glibc mangles it
 * with an xor of the pointer guard, which ld.so takes from the bytes
 * 8..15 of the kernel's AT_RANDOM. */
static inline uintptr_t sg_arch_jmpbuf_sp(const struct __jmp_buf_tag *env)
{
    const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);
    uintptr_t guard = 0;
    for (int k = 7; random && k >= 0; k--)
        guard = guard << 8 | random[8 + k];
    return (uintptr_t)env->__jmpbuf[13] ^ guard;
}

#endif
