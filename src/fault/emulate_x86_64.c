/* SPDX-License-Identifier: Apache-2.0 */
/* Emulating a neighbour's plain load or store. Single-stepping an access
 * next to a copy (step.c) costs two mprotect calls and two signals; most
 * such accesses are plain MOVs, which the handler can do itself: decode
 * the instruction, read or write its bytes through /proc/self/mem (the
 * kernel's access to the process's memory ignores the page protection,
 * as a debugger's does), put a load's value into its register and move
 * RIP past the instruction. One signal and a few cheap system calls.
 *
 * Only plain moves (general registers, and SSE moves of XMM registers,
 * whose values live in the frame's FP state): an instruction that also
 * computes (add to memory), is atomic (lock, xchg), uses a segment base
 * (FS/GS) or 32-bit addressing, is VEX-encoded (AVX), or anything this
 * decoder does not know is stepped as
 * before, as is any access the descriptor cannot make (driver mappings
 * that are not ordinary private memory, hugetlb, a descriptor the program
 * closed). The caller decides that the access touches no copy's bytes.
 *
 * The x86-64 decoder; the access itself is emulate.c's. Signal-safe:
 * reads the instruction bytes and the context only. */
#include "config.h"

#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "fault/emulate.h"

#define MAX_PREFIXES 14
#define REX_W 8
#define REX_R 4
#define REX_X 2
#define REX_B 1

/* x86 register numbers (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..r15)
 * to their places in the context. */
static const int greg_of[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                 REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                 REG_R12, REG_R13, REG_R14, REG_R15 };

static uint64_t reg_value(const ucontext_t *uc, int reg)
{
    return (uint64_t)uc->uc_mcontext.gregs[greg_of[reg]];
}

static uint64_t little_endian(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = n; k-- > 0;)
        v = v << 8 | p[k];
    return v;
}

static uint64_t sign_extend(uint64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return v;
    uint64_t sign = (uint64_t)1 << (bytes * 8 - 1);
    v &= (sign << 1) - 1;
    return (v ^ sign) - sign;
}

/* Legacy and REX prefixes: 1 if only ones emulation allows were found,
 * *at past them. A REX prefix counts only right before the opcode; *rep
 * is the last F2 or F3 (an SSE move's mandatory prefix). */
static int prefixes(const unsigned char *ip, unsigned *at, int *opsize16, int *rex, int *rep)
{
    *opsize16 = 0, *rex = 0, *rep = 0;
    for (unsigned i = 0; i < MAX_PREFIXES; i++) {
        unsigned char b = ip[i];
        if (b == 0x66)
            *opsize16 = 1, *rex = 0;
        else if (b == 0xF2 || b == 0xF3)
            *rep = b, *rex = 0;
        else if (b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26) /* no-ops in 64-bit mode */
            *rex = 0;
        else if ((b & 0xF0) == 0x40)
            *rex = b;
        else {
            *at = i;
            /* lock, FS/GS, address size: not emulated */
            return !(b == 0xF0 || b == 0x64 || b == 0x65 || b == 0x67);
        }
    }
    return 0;
}

/* SSE moves between an XMM register and memory (0F op, mandatory prefix
 * rep or 66): 1 and a's size and direction filled, 0 if not one. */
static int sse_move(unsigned char op, int opsize16, int rep, struct sg_mem_access *a)
{
    if (opsize16 && rep)
        return 0;
    int none = !opsize16 && !rep, p66 = opsize16, f3 = rep == 0xF3, f2 = rep == 0xF2;
    a->xmm = 1;
    a->is_write = op == 0x11 || op == 0x29 || op == 0x7F || op == 0xD6;
    switch (op) {
    case 0x10: case 0x11: /* movups, movupd, movss, movsd */
        a->size = f3 ? 4 : f2 ? 8 : 16;
        return 1;
    case 0x28: case 0x29: /* movaps, movapd */
        a->size = 16;
        return none || p66;
    case 0x6F: case 0x7F: /* movdqa, movdqu (no prefix: MMX) */
        a->size = 16;
        return p66 || f3;
    case 0x7E: /* F3: movq xmm, m64 */
        a->size = 8;
        return f3;
    case 0xD6: /* 66: movq m64, xmm */
        a->size = 8;
        return p66;
    }
    return 0;
}

/* What the opcode does: 1 and a's kind filled (size, store or load, sign,
 * destination width, immediate size in *imm_size), 0 if not emulated. */
static int opcode(const unsigned char *ip, unsigned *at, int opsize16, int rex, int rep,
                  struct sg_mem_access *a, unsigned *imm_size)
{
    unsigned wide = (rex & REX_W) ? 8 : opsize16 ? 2 : 4;
    unsigned char op = ip[(*at)++];
    *imm_size = 0;
    a->sign = 0;
    a->is_write = 0;
    if (op == 0x0F) {
        op = ip[(*at)++];
        if (sse_move(op, opsize16, rep, a))
            return 1;
        a->xmm = 0;
        if (rep || (op != 0xB6 && op != 0xB7 && op != 0xBE && op != 0xBF))
            return 0;
        a->size = (op & 1) ? 2 : 1; /* movzx/movsx from r/m8 or r/m16 */
        a->dest_size = wide;
        a->sign = op >= 0xBE;
        return 1;
    }
    if (rep) /* rep/xacquire/xrelease on a mov: left to the step */
        return 0;
    switch (op) {
    case 0x88: a->is_write = 1, a->size = 1; return 1;
    case 0x89: a->is_write = 1, a->size = wide; return 1;
    case 0x8A: a->size = a->dest_size = 1; return 1;
    case 0x8B: a->size = a->dest_size = wide; return 1;
    case 0xC6: a->is_write = 1, a->size = 1, *imm_size = 1; return 1;
    case 0xC7: a->is_write = 1, a->size = wide, *imm_size = wide == 2 ? 2 : 4; return 1;
    case 0x63: /* movsxd r64, r/m32; without REX.W a plain 16/32-bit move */
        a->size = (rex & REX_W) ? 4 : wide;
        a->dest_size = wide;
        a->sign = (rex & REX_W) != 0;
        return 1;
    }
    return 0;
}

/* ModRM, SIB and displacement: the effective address, except that a
 * RIP-relative one still lacks the address of the next instruction
 * (*rip_relative). 0 for a register operand (no memory access). */
static int address(const ucontext_t *uc, const unsigned char *ip, unsigned *at, int rex,
                   int *regfield, uint64_t *ea, int *rip_relative)
{
    unsigned char modrm = ip[(*at)++];
    unsigned mod = modrm >> 6, rm = modrm & 7;
    *regfield = ((modrm >> 3) & 7) | ((rex & REX_R) ? 8 : 0);
    *ea = 0, *rip_relative = 0;
    if (mod == 3)
        return 0;
    int disp32 = 0;
    if (rm == 4) {
        unsigned char sib = ip[(*at)++];
        unsigned scale = sib >> 6;
        int index = ((sib >> 3) & 7) | ((rex & REX_X) ? 8 : 0);
        int base = (sib & 7) | ((rex & REX_B) ? 8 : 0);
        if (index != 4) /* rsp as index: none (r12 is one) */
            *ea += reg_value(uc, index) << scale;
        if ((sib & 7) == 5 && mod == 0)
            disp32 = 1; /* no base */
        else
            *ea += reg_value(uc, base);
    } else if (rm == 5 && mod == 0) {
        *rip_relative = disp32 = 1;
    } else {
        *ea += reg_value(uc, (int)rm | ((rex & REX_B) ? 8 : 0));
    }
    if (mod == 1) {
        *ea += (uint64_t)(int64_t)(signed char)ip[(*at)++];
    } else if (mod == 2 || disp32) {
        *ea += (uint64_t)(int64_t)(int32_t)(uint32_t)little_endian(ip + *at, 4);
        *at += 4;
    }
    return 1;
}

int sg_emulate_decode(const ucontext_t *uc, struct sg_mem_access *a)
{
    const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
    unsigned at = 0, imm_size;
    int opsize16, rex, rep, regfield, rip_relative;
    uint64_t ea;
    memset(a, 0, sizeof *a);
    if (!prefixes(ip, &at, &opsize16, &rex, &rep) ||
        !opcode(ip, &at, opsize16, rex, rep, a, &imm_size))
        return 0;
    if (!address(uc, ip, &at, rex, &regfield, &ea, &rip_relative))
        return 0;
    if (a->xmm && !uc->uc_mcontext.fpregs)
        return 0;
    if (imm_size) {
        if (regfield & 7) /* C6/C7 /0 is mov; the rest are not */
            return 0;
        uint64_t imm = little_endian(ip + at, imm_size);
        a->imm = a->size == 8 ? sign_extend(imm, 4) : imm;
        a->reg = -1;
        at += imm_size;
    } else {
        a->reg = regfield;
        if (a->xmm)
            a->dest_size = a->size;
        /* Byte registers 4..7 without any REX prefix are AH, CH, DH, BH. */
        if (!rex && !a->xmm && regfield >= 4 && regfield < 8 &&
            (a->is_write ? a->size : a->dest_size) == 1)
            a->reg = regfield - 4, a->high8 = 1;
    }
    a->len = at;
    a->addr = (uintptr_t)(rip_relative ? ea + (uint64_t)uc->uc_mcontext.gregs[REG_RIP] + at : ea);
    return 1;
}

static unsigned char *xmm_bytes(const ucontext_t *uc, int reg)
{
    return (unsigned char *)uc->uc_mcontext.fpregs->_xmm[reg].element;
}

void sg_emulate_store_bytes(const ucontext_t *uc, const struct sg_mem_access *a,
                            unsigned char out[SG_ACCESS_MAX])
{
    memset(out, 0, 16);
    if (a->xmm) {
        memcpy(out, xmm_bytes(uc, a->reg), a->size);
        return;
    }
    uint64_t v = a->reg < 0 ? a->imm : reg_value(uc, a->reg) >> (a->high8 ? 8 : 0);
    for (unsigned k = 0; k < 8; k++, v >>= 8)
        out[k] = k < a->size ? (unsigned char)v : 0;
}

void sg_emulate_complete(ucontext_t *uc, const struct sg_mem_access *a, const unsigned char in[SG_ACCESS_MAX])
{
    greg_t *rip = &uc->uc_mcontext.gregs[REG_RIP];
    if (!a->is_write && a->xmm) {
        /* A load from memory zeroes the rest of the low 128 bits (movss,
         * movsd, movq); the upper half of a YMM register stays, as for
         * any legacy SSE instruction. */
        unsigned char *x = xmm_bytes(uc, a->reg);
        memcpy(x, in, a->size);
        memset(x + a->size, 0, 16 - a->size);
    } else if (!a->is_write) {
        uint64_t v = little_endian(in, a->size);
        if (a->sign)
            v = sign_extend(v, a->size);
        greg_t *r = &uc->uc_mcontext.gregs[greg_of[a->reg]];
        uint64_t old = (uint64_t)*r;
        switch (a->dest_size) {
        case 1:
            old = a->high8 ? (old & ~(uint64_t)0xff00) | (v & 0xff) << 8
                           : (old & ~(uint64_t)0xff) | (v & 0xff);
            break;
        case 2: old = (old & ~(uint64_t)0xffff) | (v & 0xffff); break;
        case 4: old = v & 0xffffffffu; break; /* 32-bit results zero the upper half */
        default: old = v; break;
        }
        *r = (greg_t)old;
    }
    *rip += (greg_t)a->len;
}
