/* SPDX-License-Identifier: Apache-2.0 */
/* The aarch64 neighbour-access emulator (fault/emulate_aarch64.c) and the
 * aarch64 fault facts (fault/arch_aarch64.h): which instruction words it
 * decodes (LDR/STR of every size and sign, SIMD&FP registers, LDUR/STUR,
 * pre/post-index, register offsets, LDP/STP/LDPSW/LDNP) and which it
 * leaves alone (exclusive, atomic, ordered, structure, literal, prefetch,
 * unprivileged, unpredictable write-back); addresses, sizes, directions;
 * how a load lands in its register (W zeroes the upper half, sign
 * extension, XZR discarded, V registers cleared above the load); write-
 * back; the PC moved past; the access through /proc/self/mem on a
 * PROT_NONE page; a write told by the ESR record's WnR, or by the
 * instruction without one; atomics; the jmp_buf's stack pointer. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "unit.h"

#if !defined(__aarch64__)
int main(void)
{
    printf("SKIP: aarch64 only: the aarch64 decoder; x86-64: unit/t-emulate\n");
    return 77;
}
#else
#include <asm/sigcontext.h>

#include "fault/arch.h"
#include "fault/emulate.h"
#include "fault/strings.h"

static ucontext_t uc;
static struct sg_mem_access a;
static uint32_t code[1];

#define BASE 0x10000u

static struct fpsimd_context *fp(void)
{
    return (struct fpsimd_context *)(void *)uc.uc_mcontext.__reserved;
}

/* A context at the instruction word insn: x1 = BASE, x2 = 3, sp = 0x7000,
 * xN = N * 0x1111 otherwise; V registers: byte k of vN is N * 16 + k; the
 * frame holds an fpsimd record and nothing else. */
static void at(uint32_t insn)
{
    memset(&uc, 0, sizeof uc);
    code[0] = insn;
    uc.uc_mcontext.pc = (uintptr_t)code;
    for (int r = 0; r < 31; r++)
        uc.uc_mcontext.regs[r] = (uint64_t)r * 0x1111;
    uc.uc_mcontext.regs[1] = BASE, uc.uc_mcontext.regs[2] = 3, uc.uc_mcontext.sp = 0x7000;
    fp()->head.magic = FPSIMD_MAGIC, fp()->head.size = sizeof(struct fpsimd_context);
    for (int v = 0; v < 32; v++)
        for (int k = 0; k < 16; k++)
            ((unsigned char *)&fp()->vregs[v])[k] = (unsigned char)(v * 16 + k);
}

static int decode(uint32_t insn)
{
    at(insn);
    memset(&a, 0x5a, sizeof a);
    return sg_emulate_decode(&uc, &a);
}

static int is(uint32_t insn, uintptr_t addr, unsigned size, int write)
{
    return decode(insn) && a.addr == addr && a.size == size && a.is_write == write;
}

static void addressing(void)
{
    CHECK(is(0xf9400820, BASE + 16, 8, 0), "ldr x0, [x1, #16]");
    CHECK(is(0xb9400822, BASE + 8, 4, 0), "ldr w2, [x1, #8]");
    CHECK(is(0x39400c23, BASE + 3, 1, 0), "ldrb w3, [x1, #3]");
    CHECK(is(0x79400c24, BASE + 6, 2, 0), "ldrh w4, [x1, #6]");
    CHECK(is(0xb9800427, BASE + 4, 4, 0), "ldrsw x7, [x1, #4]");
    CHECK(is(0xf9000c28, BASE + 24, 8, 1), "str x8, [x1, #24]");
    CHECK(is(0x39000829, BASE + 2, 1, 1), "strb w9, [x1, #2]");
    CHECK(is(0x7900082a, BASE + 4, 2, 1), "strh w10, [x1, #4]");
    CHECK(is(0xf85f8020, BASE - 8, 8, 0), "ldur x0, [x1, #-8]");
    CHECK(is(0xb81fc022, BASE - 4, 4, 1), "stur w2, [x1, #-4]");
    CHECK(is(0xf8410c20, BASE + 16, 8, 0) && a.base == 1 && a.base_after == BASE + 16,
          "ldr x0, [x1, #16]!: pre-index, x1 written back");
    CHECK(is(0xf85f0420, BASE, 8, 0) && a.base == 1 && a.base_after == BASE - 16,
          "ldr x0, [x1], #-16: post-index");
    CHECK(is(0xf81f0fe2, 0x7000 - 16, 8, 1) && a.base == 31 && a.base_after == 0x7000 - 16,
          "str x2, [sp, #-16]!: SP as the base");
    CHECK(is(0xf8627820, BASE + 24, 8, 0), "ldr x0, [x1, x2, lsl #3]");
    CHECK(is(0x38624820, BASE + 3, 1, 0), "ldrb w0, [x1, w2, uxtw]");
    CHECK(is(0x78226820, BASE + 3, 2, 1), "strh w0, [x1, x2]");
    at(0xb862d820);
    uc.uc_mcontext.regs[2] = 0xffffffffu; /* w2 = -1 */
    CHECK(sg_emulate_decode(&uc, &a) && a.addr == BASE - 4, "ldr w0, [x1, w2, sxtw #2]");
    CHECK(is(0x3dc00820, BASE + 32, 16, 0) && a.simd, "ldr q0, [x1, #32]");
    CHECK(is(0x3d800c21, BASE + 48, 16, 1) && a.simd, "str q1, [x1, #48]");
    CHECK(is(0xfd400422, BASE + 8, 8, 0) && a.simd, "ldr d2, [x1, #8]");
    CHECK(is(0xbd000423, BASE + 4, 4, 1) && a.simd, "str s3, [x1, #4]");
    CHECK(is(0x7d400424, BASE + 2, 2, 0) && a.simd, "ldr h4, [x1, #2]");
    CHECK(is(0x3d000425, BASE + 1, 1, 1) && a.simd, "str b5, [x1, #1]");
    CHECK(is(0xa9410820, BASE + 16, 16, 0) && a.rt == 0 && a.rt2 == 2, "ldp x0, x2, [x1, #16]");
    CHECK(is(0x293f1023, BASE - 8, 8, 1) && a.elem == 4, "stp w3, w4, [x1, #-8]");
    CHECK(is(0x69411825, BASE + 8, 8, 0) && a.sign, "ldpsw x5, x6, [x1, #8]");
    CHECK(is(0xa9be7bfd, 0x7000 - 32, 16, 1) && a.base == 31, "stp x29, x30, [sp, #-32]!");
    CHECK(is(0xa8c20820, BASE, 16, 0) && a.base_after == BASE + 32, "ldp x0, x2, [x1], #32");
    CHECK(is(0xad410420, BASE + 32, 32, 0) && a.simd, "ldp q0, q1, [x1, #32]");
    CHECK(is(0x6d010c22, BASE + 16, 16, 1) && a.simd, "stp d2, d3, [x1, #16]");
    CHECK(is(0xa8400820, BASE, 16, 0), "ldnp x0, x2, [x1]");
}

static void left_alone(void)
{
    static const struct { uint32_t insn; const char *what; } no[] = {
        { 0xc85f7c20, "ldxr" },        { 0xc8037c20, "stxr" },
        { 0xb8200022, "ldadd" },       { 0xc8a07c22, "cas" },
        { 0xc8dffc20, "ldar" },        { 0x4c407020, "ld1 {v0.16b}" },
        { 0x58000000, "ldr literal" }, { 0xf9800420, "prfm" },
        { 0xf8408820, "ldtr" },        { 0xf8408c21, "ldr x1, [x1, #8]! (unpredictable)" },
        { 0xa9400020, "ldp x0, x0 (unpredictable)" }, { 0x8b020020, "add" },
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        char what[80];
        snprintf(what, sizeof what, "%s: not emulated", no[i].what);
        CHECK(!decode(no[i].insn), what);
    }
    CHECK(is(0xf9400820, BASE + 16, 8, 0), "ldr x0 is");
    fp()->head.magic = 0;
    CHECK(sg_emulate_decode(&uc, &a) == 1, "a general register load needs no fpsimd record");
    at(0x3dc00820);
    fp()->head.magic = 0;
    CHECK(!sg_emulate_decode(&uc, &a), "a SIMD load without the frame's fpsimd record: no");
}

/* Completes a load of the bytes in and returns register r. */
static uint64_t load(uint32_t insn, const unsigned char *in, int r, uint64_t before)
{
    if (!decode(insn) || a.is_write)
        return 0xdead;
    uc.uc_mcontext.regs[r] = before;
    unsigned char buf[SG_ACCESS_MAX] = { 0 };
    memcpy(buf, in, a.size);
    sg_emulate_complete(&uc, &a, buf);
    return uc.uc_mcontext.regs[r];
}

static void loads(void)
{
    static const unsigned char in[32] = { 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
                                          0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 };
    uint64_t ones = ~(uint64_t)0;
    CHECK(load(0xf9400820, in, 0, ones) == 0x8887868584838281u, "ldr x0: 8 bytes");
    CHECK(uc.uc_mcontext.pc == (uintptr_t)code + 4, "the PC moved past it");
    CHECK(load(0xb9400822, in, 2, ones) == 0x84838281u, "ldr w2: upper half zeroed");
    CHECK(load(0x39400c23, in, 3, ones) == 0x81, "ldrb w3: zero-extended");
    CHECK(load(0x79400c24, in, 4, ones) == 0x8281, "ldrh w4");
    CHECK(load(0x39800425, in, 5, 0) == 0xffffffffffffff81u, "ldrsb x5: sign to 64");
    CHECK(load(0x39c00425, in, 5, ones) == 0xffffff81u, "ldrsb w5: sign to 32, upper zeroed");
    CHECK(load(0x79800426, in, 6, 0) == 0xffffffffffff8281u, "ldrsh x6");
    CHECK(load(0xb9800427, in, 7, 0) == 0xffffffff84838281u, "ldrsw x7");
    CHECK(load(0xf8410c20, in, 0, 0) == 0x8887868584838281u && uc.uc_mcontext.regs[1] == BASE + 16,
          "ldr x0, [x1, #16]!: x1 written back");
    CHECK(load(0xa9410820, in, 0, 0) == 0x8887868584838281u &&
              uc.uc_mcontext.regs[2] == 0x1817161514131211u,
          "ldp x0, x2: both registers");
    CHECK(load(0x69411825, in, 5, 0) == 0xffffffff84838281u &&
              uc.uc_mcontext.regs[6] == 0xffffffff88878685u,
          "ldpsw x5, x6: each sign-extended");
    CHECK(load(0xa8c20820, in, 0, 0) == 0x8887868584838281u && uc.uc_mcontext.regs[1] == BASE + 32,
          "ldp x0, x2, [x1], #32: post-index write-back");
    unsigned char buf[SG_ACCESS_MAX];
    memcpy(buf, in, sizeof in);
    decode(0xfd400422); /* ldr d2 */
    sg_emulate_complete(&uc, &a, buf);
    const unsigned char *v2 = (const unsigned char *)&fp()->vregs[2];
    CHECK(memcmp(v2, in, 8) == 0 && v2[8] == 0 && v2[15] == 0, "ldr d2: 8 bytes, the rest cleared");
    decode(0xad410420); /* ldp q0, q1 */
    for (int k = 0; k < 32; k++)
        buf[k] = (unsigned char)(0xa0 + k);
    sg_emulate_complete(&uc, &a, buf);
    CHECK(memcmp(&fp()->vregs[0], buf, 16) == 0 && memcmp(&fp()->vregs[1], buf + 16, 16) == 0,
          "ldp q0, q1: 32 bytes into two V registers");
}

static void stores(void)
{
    unsigned char out[SG_ACCESS_MAX];
    decode(0xf9000c28); /* str x8: x8 = 8 * 0x1111 */
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(out[0] == 0x88 && out[1] == 0x88 && out[2] == 0 && out[7] == 0, "str x8: its 8 bytes");
    decode(0x39000829); /* strb w9 */
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(a.size == 1 && out[0] == 0x99, "strb w9: the low byte");
    decode(0xf900103f); /* str xzr */
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(a.size == 8 && out[0] == 0 && out[7] == 0, "str xzr: zeros");
    decode(0xa9be7bfd); /* stp x29, x30, [sp, #-32]! */
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(out[0] == 0xed && out[2] == 0x01 && out[8] == 0xfe && out[10] == 0x01,
          "stp x29, x30: both registers in order"); /* 0x1eeed, 0x1fffe */
    sg_emulate_complete(&uc, &a, out);
    CHECK(uc.uc_mcontext.sp == 0x7000 - 32, "and SP written back");
    decode(0x6d010c22); /* stp d2, d3 */
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(out[0] == 0x20 && out[7] == 0x27 && out[8] == 0x30 && out[15] == 0x37,
          "stp d2, d3: the low 8 bytes of v2 and v3");
}

/* The access itself on a PROT_NONE page. */
static void through_mem(void)
{
    long size = sysconf(_SC_PAGESIZE);
    unsigned char *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    CHECK(p != MAP_FAILED, "a page");
    memset(p, 0, (size_t)size);
    p[16] = 0x42, p[17] = 0x43;
    sg_emulate_install();
    CHECK(mprotect(p, (size_t)size, PROT_NONE) == 0, "PROT_NONE");
    at(0x79402024); /* ldrh w4, [x1, #16] */
    uc.uc_mcontext.regs[1] = (uintptr_t)p;
    CHECK(sg_emulate_decode(&uc, &a) && a.addr == (uintptr_t)p + 16, "ldrh w4, [x1, #16]");
    CHECK(sg_emulate_access(&uc, &a) == 1 && uc.uc_mcontext.regs[4] == 0x4342,
          "a load through a PROT_NONE page");
    at(0xa9010820); /* stp x0, x2, [x1, #16] */
    uc.uc_mcontext.regs[1] = (uintptr_t)p, uc.uc_mcontext.regs[0] = 0x0807060504030201u;
    CHECK(sg_emulate_decode(&uc, &a) && a.is_write && sg_emulate_access(&uc, &a) == 1,
          "a pair store through it");
    CHECK(mprotect(p, (size_t)size, PROT_READ) == 0, "readable again");
    CHECK(p[16] == 1 && p[23] == 8 && p[24] == 3 && p[25] == 0 && p[32] == 0 && p[15] == 0,
          "the store wrote its 16 bytes and nothing else");
    munmap(p, (size_t)size);
}

static void fault_facts(void)
{
    at(0xf9000c28); /* str: no ESR record, the instruction says */
    CHECK(sg_arch_fault_is_write(&uc), "no ESR record: a store is a write");
    at(0xf9400820);
    CHECK(!sg_arch_fault_is_write(&uc), "no ESR record: a load is a read");
    at(0xf9400820); /* a load word, but the kernel's record says write */
    struct esr_context *esr = (void *)((char *)fp() + fp()->head.size);
    esr->head.magic = ESR_MAGIC, esr->head.size = sizeof *esr;
    esr->esr = (uint64_t)0x24 << 26 | 1u << 6;
    CHECK(sg_arch_fault_is_write(&uc), "the ESR record's WnR decides");
    esr->esr = (uint64_t)0x24 << 26;
    CHECK(!sg_arch_fault_is_write(&uc), "WnR clear: a read");
    at(0xc85f7c20);
    CHECK(sg_is_atomic_rmw(&uc), "ldxr is atomic");
    at(0xb8200022);
    CHECK(sg_is_atomic_rmw(&uc), "ldadd is atomic");
    at(0xf9400820);
    CHECK(!sg_is_atomic_rmw(&uc), "ldr is not");
    struct sg_string_op op;
    CHECK(!sg_decode_string_op(&uc, &op), "no string instructions");
}

static void jmpbuf_sp(void)
{
    jmp_buf env;
    volatile char here;
    setjmp(env);
    uintptr_t sp = sg_arch_jmpbuf_sp(env), at_here = (uintptr_t)&here;
    CHECK(sp <= at_here + 4096 && sp + 4096 >= at_here, "the jmp_buf's SP, demangled, is this frame's");
}

int main(void)
{
    addressing();
    left_alone();
    loads();
    stores();
    through_mem();
    fault_facts();
    jmpbuf_sp();
    return unit_done();
}
#endif
