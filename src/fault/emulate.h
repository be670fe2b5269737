/* SPDX-License-Identifier: Apache-2.0 */
/* Emulating a plain load or store that faulted on a guarded page next to
 * a copy (src/fault/emulate.c): decoded from the instruction bytes and the
 * context, done through /proc/self/mem (which reaches protected pages),
 * the context updated as the instruction would have. Signal-safe. */
#ifndef SG_FAULT_EMULATE_H
#define SG_FAULT_EMULATE_H

#include <stdint.h>
#include <ucontext.h>

/* The most bytes one access moves (an aarch64 LDP/STP of two Q registers). */
#define SG_ACCESS_MAX 32

/* One decoded memory access. */
struct sg_mem_access {
    uintptr_t addr;     /* effective address */
    unsigned size;      /* bytes read or written, all of them */
    int is_write;       /* a store (else a load into reg) */
#if defined(__x86_64__)
    unsigned len;       /* instruction length: RIP advances by it */
    int reg;            /* register read (store) or written (load): 0..15, -1 immediate */
    int xmm;            /* reg is XMM0..XMM15 (an SSE move) */
    int high8;          /* reg is AH, CH, DH or BH (bits 8..15 of reg) */
    unsigned dest_size; /* load: width of the register written: 1, 2, 4 or 8 */
    int sign;           /* load: sign-extend from size to dest_size */
    uint64_t imm;       /* store of an immediate */
#elif defined(__aarch64__)
    int rt, rt2;        /* the register(s) moved; rt2 -1 unless a pair (LDP/STP) */
    int simd;           /* they are V registers (B/H/S/D/Q), else X/W (31: zero) */
    unsigned elem;      /* bytes per register: size, or size / 2 for a pair */
    int sign;           /* load: sign-extend elem bytes to dest_size */
    unsigned dest_size; /* load into X/W: 4 (W, upper half zeroed) or 8 */
    int base;           /* pre/post-index: the base register written back (31: SP), else -1 */
    uint64_t base_after; /* its value after the instruction */
#endif
};

/* 1 and *a filled if the context's instruction is one that emulation
 * handles (MOV 88/89/8A/8B/C6/C7, MOVZX/MOVSX 0F B6/B7/BE/BF, MOVSXD 63,
 * with REX and 66 prefixes; the SSE moves MOVUPS/MOVUPD/MOVSS/MOVSD
 * 0F 10/11, MOVAPS/MOVAPD 0F 28/29, MOVDQA/MOVDQU 66/F3 0F 6F/7F, MOVQ
 * F3 0F 7E and 66 0F D6; any ModRM/SIB/displacement addressing and
 * RIP-relative); 0 for anything else (lock, segment FS/GS, address-size
 * prefixes, VEX, register operands, every other opcode). Reads the
 * instruction bytes at RIP. On aarch64 (emulate_aarch64.c): LDR/STR of
 * X/W registers (all sizes: B, H, W, X; LDRSB/LDRSH/LDRSW), of B/H/S/D/Q
 * registers, LDUR/STUR, LDP/STP/LDPSW and LDNP/STNP of both, with
 * unsigned-offset, unscaled, pre- and post-index and register-offset
 * (LSL/UXTW/SXTW/SXTX) addressing; 0 for anything else (exclusive,
 * acquire/release and atomic accesses, LD1/ST1 structures, literal loads,
 * prefetches, unprivileged LDTR/STTR). Reads the instruction word at PC. */
int sg_emulate_decode(const ucontext_t *uc, struct sg_mem_access *a);

/* The bytes a decoded store writes (little-endian, a->size of them). */
void sg_emulate_store_bytes(const ucontext_t *uc, const struct sg_mem_access *a,
                            unsigned char out[SG_ACCESS_MAX]);
/* Completes a decoded access in the context: a load's value (a->size
 * bytes from in) goes into its register as the instruction would put it
 * there; RIP moves past the instruction. */
void sg_emulate_complete(ucontext_t *uc, const struct sg_mem_access *a,
                         const unsigned char in[SG_ACCESS_MAX]);

/* Does the access through /proc/self/mem and completes it: 1, or 0 when
 * that is not possible (no descriptor, a short or failed transfer; the
 * memory is then untouched by a load, and by a failed store). */
int sg_emulate_access(ucontext_t *uc, const struct sg_mem_access *a);

/* Reads n bytes at addr, protected or not: 1, or 0 when it cannot. */
int sg_emulate_peek(uintptr_t addr, void *buf, size_t n);

/* Opens the /proc/self/mem descriptor (from sg_fault_install). */
void sg_emulate_install(void);

#endif
