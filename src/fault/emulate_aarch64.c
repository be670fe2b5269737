/* SPDX-License-Identifier: Apache-2.0 */
/* The aarch64 decoder of a neighbour's plain load or store (emulate.c
 * does the access). A thread cannot single-step itself on aarch64, so
 * what this decoder does not know settles the page instead (handler.c):
 * opened once its copies are done, never a wrong value.
 *
 * Covered: the single-register forms LDR/STR (X, W, B, H; LDRSB, LDRSH,
 * LDRSW into W or X) and LDR/STR of the SIMD&FP registers B, H, S, D and
 * Q, with an unsigned scaled offset, an unscaled one (LDUR/STUR), pre-
 * and post-index, and a register offset (LSL, UXTW, SXTW, SXTX); the
 * pairs LDP/STP/LDPSW and LDNP/STNP of W, X, S, D and Q registers, with a
 * signed offset, pre- and post-index. Not covered (settled): literal
 * loads, exclusive, acquire/release and LSE atomic accesses, LD1/ST1 and
 * the other structure loads, unprivileged LDTR/STTR, prefetches, SVE and
 * the memory-tagging forms, and the encodings the architecture calls
 * unpredictable (write-back into a loaded register). A SIMD&FP load is
 * not emulated while the thread has live SVE state (the frame's V
 * registers are the low bits of its Z registers, whose rest a real load
 * would clear). Signal-safe: reads the instruction word and the context. */
#include "config.h"

#include <asm/sigcontext.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "fault/arch.h"
#include "fault/emulate.h"

#define ZR_OR_SP 31

static unsigned bits(uint32_t insn, unsigned lo, unsigned n)
{
    return (insn >> lo) & ((1u << n) - 1);
}

static int64_t signed_bits(uint32_t insn, unsigned lo, unsigned n)
{
    uint64_t v = bits(insn, lo, n);
    return (int64_t)(v << (64 - n)) >> (64 - n);
}

static uint64_t base_value(const ucontext_t *uc, unsigned rn)
{
    return rn == ZR_OR_SP ? uc->uc_mcontext.sp : uc->uc_mcontext.regs[rn];
}

static uint64_t gpr_value(const ucontext_t *uc, int r)
{
    return r == ZR_OR_SP ? 0 : uc->uc_mcontext.regs[r];
}

/* The frame's V registers (fpsimd_context), or NULL. */
static unsigned char *vregs(const ucontext_t *uc)
{
    struct fpsimd_context *fp = (void *)(uintptr_t)sg_arch_record(uc, FPSIMD_MAGIC);
    return fp ? (unsigned char *)fp->vregs : NULL;
}

/* The thread's SVE registers are live (the frame holds their contents). */
static int sve_live(const ucontext_t *uc)
{
    const struct _aarch64_ctx *sve = sg_arch_record(uc, SVE_MAGIC);
    return sve && sve->size > sizeof(struct sve_context);
}

/* The size and direction of a single-register access from size:opc (and
 * V); 0 for the forms that are no plain load or store (PRFM, unallocated). */
static int single_kind(uint32_t insn, struct sg_mem_access *a)
{
    unsigned size = bits(insn, 30, 2), opc = bits(insn, 22, 2);
    a->simd = bits(insn, 26, 1);
    if (a->simd) {
        if ((opc & 2) && size != 0)
            return 0;
        a->elem = (opc & 2) ? 16 : 1u << size;
        a->is_write = !(opc & 1);
        return 1;
    }
    a->elem = 1u << size;
    a->is_write = opc == 0;
    a->sign = opc >= 2;
    a->dest_size = opc == 1 ? (size == 3 ? 8 : 4) : opc == 2 ? 8 : 4;
    return !(opc == 2 && size == 3) && !(opc == 3 && size >= 2);
}

/* The register-offset form's offset: Rm extended (UXTW, SXTW) or as is
 * (LSL, SXTX), shifted by the access's scale if S. */
static int register_offset(const ucontext_t *uc, uint32_t insn, unsigned scale, uint64_t *off)
{
    unsigned option = bits(insn, 13, 3), rm = bits(insn, 16, 5);
    uint64_t v = gpr_value(uc, (int)rm);
    switch (option) {
    case 2: v = (uint32_t)v; break;                   /* UXTW */
    case 3: case 7: break;                           /* LSL / UXTX, SXTX */
    case 6: v = (uint64_t)(int64_t)(int32_t)v; break; /* SXTW */
    default: return 0;
    }
    *off = v << (bits(insn, 12, 1) ? scale : 0);
    return 1;
}

static unsigned log2_of(unsigned n)
{
    unsigned s = 0;
    while ((1u << s) < n)
        s++;
    return s;
}

#define UNSIGNED_IMM_MASK 0x3b000000u
#define UNSIGNED_IMM_BITS 0x39000000u
#define IMM9_MASK 0x3b200000u /* unscaled, post-index, unprivileged, pre-index */
#define IMM9_BITS 0x38000000u
#define REG_OFFSET_MASK 0x3b200c00u
#define REG_OFFSET_BITS 0x38200800u
#define PAIR_MASK 0x3a000000u
#define PAIR_BITS 0x28000000u

static int decode_single(const ucontext_t *uc, uint32_t insn, struct sg_mem_access *a)
{
    if (!single_kind(insn, a))
        return 0;
    unsigned rn = bits(insn, 5, 5), scale = log2_of(a->elem);
    uint64_t base = base_value(uc, rn), off;
    a->rt = (int)bits(insn, 0, 5);
    if ((insn & UNSIGNED_IMM_MASK) == UNSIGNED_IMM_BITS) {
        a->addr = base + ((uint64_t)bits(insn, 10, 12) << scale);
    } else if ((insn & REG_OFFSET_MASK) == REG_OFFSET_BITS) {
        if (!register_offset(uc, insn, scale, &off))
            return 0;
        a->addr = base + off;
    } else {
        unsigned idx = bits(insn, 10, 2);
        int64_t imm = signed_bits(insn, 12, 9);
        if (idx == 2)
            return 0; /* unprivileged LDTR/STTR */
        a->addr = idx == 1 ? base : base + (uint64_t)imm;
        if (idx != 0)
            a->base = (int)rn, a->base_after = base + (uint64_t)imm;
    }
    a->size = a->elem;
    return 1;
}

static int decode_pair(const ucontext_t *uc, uint32_t insn, struct sg_mem_access *a)
{
    unsigned opc = bits(insn, 30, 2), idx = bits(insn, 23, 2), rn = bits(insn, 5, 5);
    a->simd = bits(insn, 26, 1);
    a->is_write = !bits(insn, 22, 1);
    if (a->simd) {
        if (opc == 3)
            return 0;
        a->elem = 4u << opc;
    } else {
        if (opc == 3 || (opc == 1 && a->is_write)) /* STGP: memory tagging */
            return 0;
        a->elem = opc == 2 ? 8 : 4;
        a->sign = opc == 1; /* LDPSW */
        a->dest_size = opc == 0 ? 4 : 8;
    }
    a->rt = (int)bits(insn, 0, 5), a->rt2 = (int)bits(insn, 10, 5);
    if (!a->is_write && a->rt == a->rt2)
        return 0; /* unpredictable */
    uint64_t base = base_value(uc, rn), imm = (uint64_t)(signed_bits(insn, 15, 7) * (int64_t)a->elem);
    a->addr = idx == 1 ? base : base + imm;
    if (idx == 1 || idx == 3)
        a->base = (int)rn, a->base_after = base + imm;
    a->size = 2 * a->elem;
    return 1;
}

int sg_emulate_decode(const ucontext_t *uc, struct sg_mem_access *a)
{
    uint32_t insn = *(const uint32_t *)(uintptr_t)uc->uc_mcontext.pc;
    memset(a, 0, sizeof *a);
    a->rt2 = -1, a->base = -1;
    int ok;
    if ((insn & UNSIGNED_IMM_MASK) == UNSIGNED_IMM_BITS || (insn & IMM9_MASK) == IMM9_BITS ||
        (insn & REG_OFFSET_MASK) == REG_OFFSET_BITS)
        ok = decode_single(uc, insn, a);
    else if ((insn & PAIR_MASK) == PAIR_BITS)
        ok = decode_pair(uc, insn, a);
    else
        return 0;
    if (!ok)
        return 0;
    /* Write-back into the register moved is unpredictable. */
    if (a->base >= 0 && a->base != ZR_OR_SP && !a->simd &&
        (a->base == a->rt || a->base == a->rt2))
        return 0;
    if (a->simd && (!vregs(uc) || (!a->is_write && sve_live(uc))))
        return 0;
    return 1;
}

void sg_emulate_store_bytes(const ucontext_t *uc, const struct sg_mem_access *a,
                            unsigned char out[SG_ACCESS_MAX])
{
    memset(out, 0, SG_ACCESS_MAX);
    int regs[2] = { a->rt, a->rt2 };
    for (int k = 0; k < (a->rt2 >= 0 ? 2 : 1); k++) {
        unsigned char *to = out + k * a->elem;
        if (a->simd) {
            memcpy(to, vregs(uc) + 16 * regs[k], a->elem);
            continue;
        }
        uint64_t v = gpr_value(uc, regs[k]);
        for (unsigned b = 0; b < a->elem; b++, v >>= 8)
            to[b] = (unsigned char)v;
    }
}

static void load_gpr(ucontext_t *uc, const struct sg_mem_access *a, int r, const unsigned char *in)
{
    uint64_t v = 0;
    for (unsigned b = a->elem; b-- > 0;)
        v = v << 8 | in[b];
    if (a->sign && a->elem < 8) {
        unsigned shift = 64 - 8 * a->elem;
        v = (uint64_t)((int64_t)(v << shift) >> shift);
    }
    if (a->dest_size == 4)
        v = (uint32_t)v; /* a W register: the upper half zeroed */
    if (r != ZR_OR_SP)
        uc->uc_mcontext.regs[r] = v;
}

void sg_emulate_complete(ucontext_t *uc, const struct sg_mem_access *a,
                         const unsigned char in[SG_ACCESS_MAX])
{
    int regs[2] = { a->rt, a->rt2 };
    for (int k = 0; !a->is_write && k < (a->rt2 >= 0 ? 2 : 1); k++) {
        if (a->simd) {
            unsigned char *v = vregs(uc) + 16 * regs[k];
            memcpy(v, in + k * a->elem, a->elem);
            memset(v + a->elem, 0, 16 - a->elem); /* a scalar load clears the rest */
        } else {
            load_gpr(uc, a, regs[k], in + k * a->elem);
        }
    }
    if (a->base == ZR_OR_SP)
        uc->uc_mcontext.sp = a->base_after;
    else if (a->base >= 0)
        uc->uc_mcontext.regs[a->base] = a->base_after;
    uc->uc_mcontext.pc += 4;
}
