/* SPDX-License-Identifier: Apache-2.0 */
/* The neighbour-access emulator (fault/emulate.c): which instructions it
 * decodes (plain MOV, MOVZX, MOVSX, MOVSXD, every addressing form) and
 * which it leaves to single-stepping; the effective address, size and
 * direction; how a load's value lands in its register (AH..BH, zero
 * extension of 32-bit results, upper bits kept for 8/16-bit ones, sign
 * extension); SSE moves to and from XMM registers; RIP past the
 * instruction; and the access itself through
 * /proc/self/mem on a PROT_NONE page. */
#define _GNU_SOURCE /* REG_RIP and the other register names */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "fault/emulate.h"
#include "unit.h"

#if !defined(__x86_64__)
#include <stdio.h>
int main(void)
{
    printf("SKIP: x86-64 only: the x86 MOV/SSE decoder; aarch64: unit/t-emulate-a64\n");
    return 77;
}
#else

static ucontext_t uc;
static struct _libc_fpstate fp;

/* A context at code with a few distinct register values. */
static void at(const unsigned char *code)
{
    memset(&uc, 0, sizeof uc);
    greg_t *g = uc.uc_mcontext.gregs;
    g[REG_RIP] = (greg_t)(uintptr_t)code;
    g[REG_RAX] = 0x1000, g[REG_RCX] = 2, g[REG_RDX] = 0x1122334455667788;
    g[REG_RBX] = 0x3000, g[REG_RSP] = 0x7000, g[REG_RBP] = 0x8000;
    g[REG_RSI] = 0x5000, g[REG_RDI] = 0x6000, g[REG_R8] = 0x10000, g[REG_R9] = 0x9999;
    g[REG_R12] = 0x12000, g[REG_R13] = 0x13000, g[REG_R11] = 3;
    memset(&fp, 0, sizeof fp);
    for (int k = 0; k < 16; k++) /* xmm1: bytes 0x10..0x1f, xmm9: 0x90..0x9f */
        fp._xmm[1].element[k / 4] |= (uint32_t)(0x10 + k) << (8 * (k % 4)),
            fp._xmm[9].element[k / 4] |= (uint32_t)(0x90 + k) << (8 * (k % 4));
    uc.uc_mcontext.fpregs = &fp;
}


static struct sg_mem_access a;

static int decode(const unsigned char *code)
{
    at(code);
    memset(&a, 0x5a, sizeof a);
    return sg_emulate_decode(&uc, &a);
}

/* Completes a load of the bytes in and returns the register it wrote. */
static uint64_t load(const unsigned char *code, const unsigned char *in, int greg, uint64_t before)
{
    if (!decode(code) || a.is_write)
        return 0xdead;
    uc.uc_mcontext.gregs[greg] = (greg_t)before;
    unsigned char buf[SG_ACCESS_MAX] = { 0 }; /* the size the interface takes */
    memcpy(buf, in, a.size);
    sg_emulate_complete(&uc, &a, buf);
    return (uint64_t)uc.uc_mcontext.gregs[greg];
}

static uint64_t stored(const unsigned char *code)
{
    if (!decode(code) || !a.is_write)
        return 0xdead;
    unsigned char out[SG_ACCESS_MAX];
    sg_emulate_store_bytes(&uc, &a, out);
    uint64_t v = 0;
    memcpy(&v, out, 8);
    return v;
}

static void addressing(void)
{
    static const unsigned char base[] = { 0x8b, 0x06 },          /* mov eax, [rsi] */
        disp8[] = { 0x8b, 0x46, 0xf0 },                          /* mov eax, [rsi-16] */
        disp32[] = { 0x8b, 0x86, 0x00, 0x01, 0x00, 0x00 },       /* mov eax, [rsi+0x100] */
        sib[] = { 0x8b, 0x04, 0x8e },                            /* mov eax, [rsi+rcx*4] */
        sib_disp8[] = { 0x48, 0x8b, 0x44, 0xce, 0x08 },          /* mov rax, [rsi+rcx*8+8] */
        no_index[] = { 0x8b, 0x04, 0x24 },                       /* mov eax, [rsp] */
        no_base[] = { 0x8b, 0x04, 0x8d, 0x00, 0x20, 0x00, 0x00 }, /* [rcx*4+0x2000] */
        absolute[] = { 0x8b, 0x04, 0x25, 0x00, 0x40, 0x00, 0x00 }, /* [0x4000] */
        r12[] = { 0x41, 0x8b, 0x04, 0x24 },                      /* mov eax, [r12] */
        r13[] = { 0x41, 0x8b, 0x45, 0x00 },                      /* mov eax, [r13+0] */
        r12_index[] = { 0x42, 0x8b, 0x04, 0x20 },                /* mov eax, [rax+r12] */
        r8_base[] = { 0x41, 0x8b, 0x00 },                        /* mov eax, [r8] */
        rbp_disp8[] = { 0x8b, 0x45, 0x08 },                      /* mov eax, [rbp+8] */
        rip[] = { 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00 },          /* mov eax, [rip+16] */
        rip_imm[] = { 0xc7, 0x05, 0xf0, 0xff, 0xff, 0xff, 1, 0, 0, 0 }; /* [rip-16], 1 */

    CHECK(decode(base) && a.addr == 0x5000 && a.size == 4 && !a.is_write && a.len == 2,
          "mov eax, [rsi]: a 4-byte load at rsi, 2 bytes long");
    CHECK(decode(disp8) && a.addr == 0x5000 - 16 && a.len == 3, "disp8 is signed");
    CHECK(decode(disp32) && a.addr == 0x5100 && a.len == 6, "disp32");
    CHECK(decode(sib) && a.addr == 0x5008 && a.len == 3, "SIB base + index*4");
    CHECK(decode(sib_disp8) && a.addr == 0x5000 + 16 + 8 && a.size == 8 && a.len == 5,
          "SIB with disp8, REX.W: 8 bytes");
    CHECK(decode(no_index) && a.addr == 0x7000, "index rsp means none: [rsp]");
    CHECK(decode(no_base) && a.addr == 0x2008 && a.len == 7, "base 5 with mod 0: no base, disp32");
    CHECK(decode(absolute) && a.addr == 0x4000, "no base, no index: an absolute disp32");
    CHECK(decode(r12) && a.addr == 0x12000 && a.len == 4, "r12 as base (needs a SIB)");
    CHECK(decode(r13) && a.addr == 0x13000 && a.len == 4, "r13 as base (needs a disp8)");
    CHECK(decode(r12_index) && a.addr == 0x1000 + 0x12000, "REX.X: r12 is an index");
    CHECK(decode(r8_base) && a.addr == 0x10000 && a.len == 3, "REX.B: r8 as base");
    CHECK(decode(rbp_disp8) && a.addr == 0x8008, "rbp + disp8");
    CHECK(decode(rip) && a.addr == (uintptr_t)rip + 6 + 16 && a.len == 6,
          "RIP-relative: from the next instruction");
    CHECK(decode(rip_imm) && a.is_write && a.addr == (uintptr_t)rip_imm + 10 - 16 &&
              a.len == 10 && a.imm == 1,
          "RIP-relative with an immediate after the displacement");
}

static void stores(void)
{
    static const unsigned char mov8[] = { 0x88, 0x16 }, /* mov [rsi], dl */
        mov8_ah[] = { 0x88, 0x26 },                      /* mov [rsi], ah */
        mov8_spl[] = { 0x40, 0x88, 0x26 },               /* mov [rsi], spl (REX) */
        mov8_r9b[] = { 0x44, 0x88, 0x0e },               /* mov [rsi], r9b */
        mov16[] = { 0x66, 0x89, 0x16 },                  /* mov [rsi], dx */
        mov32[] = { 0x89, 0x16 },                        /* mov [rsi], edx */
        mov64[] = { 0x48, 0x89, 0x16 },                  /* mov [rsi], rdx */
        imm8[] = { 0xc6, 0x06, 0x7f },                   /* mov byte [rsi], 0x7f */
        imm16[] = { 0x66, 0xc7, 0x06, 0x34, 0x12 },      /* mov word [rsi], 0x1234 */
        imm32[] = { 0xc7, 0x06, 0x78, 0x56, 0x34, 0x12 }, /* mov dword [rsi], 0x12345678 */
        imm64[] = { 0x48, 0xc7, 0x06, 0xfe, 0xff, 0xff, 0xff }, /* mov qword [rsi], -2 */
        ignored_rex[] = { 0x48, 0x66, 0x89, 0x16 };      /* REX before 66: ignored */

    CHECK(stored(mov8) == 0x88 && a.size == 1 && a.is_write && a.len == 2, "mov [rsi], dl");
    CHECK(stored(mov8_ah) == 0x10 && a.high8, "mov [rsi], ah: bits 8..15 of rax");
    CHECK(stored(mov8_spl) == 0x00 && !a.high8 && a.reg == 4, "with REX, 4 is spl, not ah");
    CHECK(stored(mov8_r9b) == 0x99, "REX.R: r9b");
    CHECK(stored(mov16) == 0x7788 && a.size == 2 && a.len == 3, "66: a 2-byte store");
    CHECK(stored(mov32) == 0x55667788 && a.size == 4, "a 4-byte store");
    CHECK(stored(mov64) == 0x1122334455667788 && a.size == 8, "REX.W: an 8-byte store");
    CHECK(stored(imm8) == 0x7f && a.len == 3, "mov byte [rsi], imm8");
    CHECK(stored(imm16) == 0x1234 && a.size == 2 && a.len == 5, "66 C7: imm16");
    CHECK(stored(imm32) == 0x12345678 && a.size == 4 && a.len == 6, "C7: imm32");
    CHECK(stored(imm64) == 0xfffffffffffffffe && a.size == 8 && a.len == 7,
          "REX.W C7: imm32 sign-extended to 64 bits");
    CHECK(stored(ignored_rex) == 0x7788 && a.size == 2 && a.len == 4,
          "a REX prefix not right before the opcode is ignored");
}

static void loads(void)
{
    static const unsigned char in[8] = { 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88 };
    static const unsigned char mov8[] = { 0x8a, 0x06 }, /* mov al, [rsi] */
        mov8_bh[] = { 0x8a, 0x3e },                      /* mov bh, [rsi] */
        mov8_dil[] = { 0x40, 0x8a, 0x3e },               /* mov dil, [rsi] */
        mov16[] = { 0x66, 0x8b, 0x06 },                  /* mov ax, [rsi] */
        mov32[] = { 0x8b, 0x06 },                        /* mov eax, [rsi] */
        mov64_r15[] = { 0x4c, 0x8b, 0x3e },              /* mov r15, [rsi] */
        movzx8[] = { 0x0f, 0xb6, 0x06 },                 /* movzx eax, byte [rsi] */
        movzx16_64[] = { 0x48, 0x0f, 0xb7, 0x06 },       /* movzx rax, word [rsi] */
        movzx8_16[] = { 0x66, 0x0f, 0xb6, 0x06 },        /* movzx ax, byte [rsi] */
        movsx8[] = { 0x48, 0x0f, 0xbe, 0x06 },           /* movsx rax, byte [rsi] */
        movsx16_32[] = { 0x0f, 0xbf, 0x06 },             /* movsx eax, word [rsi] */
        movsxd[] = { 0x48, 0x63, 0x06 },                 /* movsxd rax, dword [rsi] */
        movsxd32[] = { 0x63, 0x06 };                     /* movsxd eax, dword [rsi] */
    uint64_t ones = ~(uint64_t)0;

    CHECK(load(mov8, in, REG_RAX, ones) == 0xffffffffffffff81 && a.len == 2,
          "mov al: only the low byte changes");
    CHECK(load(mov8_bh, in, REG_RBX, 0) == 0x8100 && a.high8, "mov bh: bits 8..15 of rbx");
    CHECK(load(mov8_dil, in, REG_RDI, ones) == 0xffffffffffffff81 && !a.high8,
          "with REX, 7 is dil");
    CHECK(load(mov16, in, REG_RAX, ones) == 0xffffffffffff8281, "mov ax: upper 48 bits kept");
    CHECK(load(mov32, in, REG_RAX, ones) == 0x84838281, "mov eax: the upper half is zeroed");
    CHECK(load(mov64_r15, in, REG_R15, 0) == 0x8887868584838281, "mov r15 (REX.W REX.R)");
    CHECK(load(movzx8, in, REG_RAX, ones) == 0x81 && a.size == 1, "movzx eax, byte");
    CHECK(load(movzx16_64, in, REG_RAX, ones) == 0x8281 && a.size == 2, "movzx rax, word");
    CHECK(load(movzx8_16, in, REG_RAX, ones) == 0xffffffffffff0081, "movzx ax, byte");
    CHECK(load(movsx8, in, REG_RAX, 0) == 0xffffffffffffff81, "movsx rax, byte");
    CHECK(load(movsx16_32, in, REG_RAX, ones) == 0xffff8281, "movsx eax, word: upper half 0");
    CHECK(load(movsxd, in, REG_RAX, 0) == 0xffffffff84838281 && a.size == 4, "movsxd rax");
    CHECK(load(movsxd32, in, REG_RAX, ones) == 0x84838281, "63 without REX.W: a 32-bit move");
    load(mov32, in, REG_RAX, 0);
    CHECK((uintptr_t)uc.uc_mcontext.gregs[REG_RIP] == (uintptr_t)mov32 + 2,
          "RIP moves past the instruction");
}

static void not_emulated(void)
{
    static const unsigned char lock_mov[] = { 0xf0, 0x01, 0x06 }, /* lock add [rsi], eax */
        add[] = { 0x01, 0x06 },                                    /* add [rsi], eax */
        xchg[] = { 0x87, 0x06 },                                   /* xchg [rsi], eax */
        fs[] = { 0x64, 0x8b, 0x06 },                               /* mov eax, fs:[rsi] */
        gs[] = { 0x65, 0x48, 0x8b, 0x06 },                         /* mov rax, gs:[rsi] */
        addr32[] = { 0x67, 0x8b, 0x06 },                           /* mov eax, [esi] */
        reg[] = { 0x89, 0xc0 },                                    /* mov eax, eax */
        c7_1[] = { 0xc7, 0x0e, 0, 0, 0, 0 },                       /* C7 /1: not mov */
        rep_movs[] = { 0xf3, 0xa4 },                               /* rep movsb */
        vex[] = { 0xc5, 0xfa, 0x6f, 0x06 },                        /* vmovdqu xmm0, [rsi] */
        cmpxchg[] = { 0x0f, 0xb1, 0x0e };                          /* cmpxchg [rsi], ecx */

    CHECK(!decode(lock_mov), "lock prefix: stepped (needs real atomicity)");
    CHECK(!decode(add), "add to memory: not a plain move");
    CHECK(!decode(xchg), "xchg: atomic");
    CHECK(!decode(fs) && !decode(gs), "FS/GS segment bases: stepped");
    CHECK(!decode(addr32), "32-bit addressing: stepped");
    CHECK(!decode(reg), "a register operand: no memory access");
    CHECK(!decode(c7_1), "C7 with a reg field other than 0");
    CHECK(!decode(vex), "AVX (VEX) moves: stepped");
    CHECK(!decode(rep_movs), "string instructions: their own decoder");
    CHECK(!decode(cmpxchg), "cmpxchg: stepped");
}

static void sse(void)
{
    static const unsigned char in[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                          0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };
    static const unsigned char movups_st[] = { 0x0f, 0x11, 0x0e },  /* movups [rsi], xmm1 */
        movdqu_st9[] = { 0xf3, 0x44, 0x0f, 0x7f, 0x0e },            /* movdqu [rsi], xmm9 */
        movss_st[] = { 0xf3, 0x0f, 0x11, 0x0e },                    /* movss [rsi], xmm1 */
        movq_st[] = { 0x66, 0x0f, 0xd6, 0x0e },                     /* movq [rsi], xmm1 */
        movdqa_ld[] = { 0x66, 0x0f, 0x6f, 0x0e },                   /* movdqa xmm1, [rsi] */
        movsd_ld[] = { 0xf2, 0x0f, 0x10, 0x0e },                    /* movsd xmm1, [rsi] */
        movq_ld[] = { 0xf3, 0x0f, 0x7e, 0x0e },                     /* movq xmm1, [rsi] */
        movaps_rip[] = { 0x0f, 0x28, 0x0d, 0x10, 0, 0, 0 },         /* movaps xmm1, [rip+16] */
        mmx[] = { 0x0f, 0x6f, 0x0e },                               /* movq mm1, [rsi] */
        both[] = { 0x66, 0xf3, 0x0f, 0x6f, 0x0e },                  /* 66 and F3 */
        cvt[] = { 0xf3, 0x0f, 0x28, 0x0e },                         /* F3 0F 28: not a move */
        rep_mov[] = { 0xf3, 0x89, 0x0e };                           /* xrelease mov */
    unsigned char out[SG_ACCESS_MAX], buf[SG_ACCESS_MAX];

    CHECK(decode(movups_st) && a.is_write && a.xmm && a.size == 16 && a.len == 3 &&
              a.addr == 0x5000,
          "movups [rsi], xmm1: a 16-byte store");
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(out[0] == 0x10 && out[15] == 0x1f, "it stores xmm1's bytes");
    CHECK(decode(movdqu_st9) && a.reg == 9 && a.size == 16 && a.len == 5,
          "movdqu [rsi], xmm9 (REX.R after F3)");
    sg_emulate_store_bytes(&uc, &a, out);
    CHECK(out[0] == 0x90 && out[15] == 0x9f, "xmm9's bytes");
    CHECK(decode(movss_st) && a.is_write && a.size == 4, "movss store: 4 bytes");
    CHECK(decode(movq_st) && a.is_write && a.size == 8, "66 0F D6 movq store: 8 bytes");

    memcpy(buf, in, 16);
    CHECK(decode(movdqa_ld) && !a.is_write && a.size == 16, "movdqa load: 16 bytes");
    sg_emulate_complete(&uc, &a, buf);
    CHECK(fp._xmm[1].element[0] == 0xa3a2a1a0 && fp._xmm[1].element[3] == 0xafaeadac &&
              fp._xmm[9].element[0] == 0x93929190,
          "movdqa fills xmm1 and no other");
    CHECK(decode(movsd_ld) && a.size == 8, "movsd load: 8 bytes");
    sg_emulate_complete(&uc, &a, buf);
    CHECK(fp._xmm[1].element[0] == 0xa3a2a1a0 && fp._xmm[1].element[1] == 0xa7a6a5a4 &&
              fp._xmm[1].element[2] == 0 && fp._xmm[1].element[3] == 0,
          "movsd from memory zeroes bits 64..127");
    CHECK(decode(movq_ld) && a.size == 8, "F3 0F 7E movq load: 8 bytes");
    CHECK(decode(movaps_rip) && a.size == 16 && a.addr == (uintptr_t)movaps_rip + 7 + 16,
          "movaps, RIP-relative");
    CHECK(!decode(mmx), "MMX moves: stepped");
    CHECK(!decode(both), "66 with F3: stepped");
    CHECK(!decode(cvt), "F3 0F 28: stepped");
    CHECK(!decode(rep_mov), "F3 on a plain mov (xrelease): stepped");
    at(movups_st);
    uc.uc_mcontext.fpregs = NULL;
    CHECK(!sg_emulate_decode(&uc, &a), "no FP state in the context: stepped");
}

/* The access itself, through /proc/self/mem, on a page the process
 * cannot touch. */
static void through_protection(void)
{
    long size = sysconf(_SC_PAGESIZE);
    unsigned char *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "mmap");
    if (p == MAP_FAILED)
        return;
    memset(p, 0, (size_t)size);
    p[100] = 0x42, p[101] = 0x43;
    sg_emulate_install();
    static const unsigned char load16[] = { 0x66, 0x8b, 0x46, 0x64 }, /* mov ax, [rsi+100] */
        store32[] = { 0xc7, 0x46, 0x68, 0x78, 0x56, 0x34, 0x12 };    /* [rsi+104] = imm */
    CHECK(mprotect(p, (size_t)size, PROT_NONE) == 0, "PROT_NONE");

    at(load16);
    uc.uc_mcontext.gregs[REG_RSI] = (greg_t)(uintptr_t)p;
    uc.uc_mcontext.gregs[REG_RAX] = (greg_t)0x1111111111111111;
    CHECK(sg_emulate_decode(&uc, &a) && a.addr == (uintptr_t)p + 100, "decoded at p+100");
    CHECK(sg_emulate_access(&uc, &a) == 1, "a load through a PROT_NONE page");
    CHECK((uint64_t)uc.uc_mcontext.gregs[REG_RAX] == 0x1111111111114342,
          "it read the page's bytes into ax");
    CHECK((uintptr_t)uc.uc_mcontext.gregs[REG_RIP] == (uintptr_t)load16 + 4, "and moved RIP on");

    at(store32);
    uc.uc_mcontext.gregs[REG_RSI] = (greg_t)(uintptr_t)p;
    CHECK(sg_emulate_decode(&uc, &a) && sg_emulate_access(&uc, &a) == 1,
          "a store through a PROT_NONE page");
    CHECK(mprotect(p, (size_t)size, PROT_READ) == 0, "readable again");
    CHECK(p[104] == 0x78 && p[105] == 0x56 && p[106] == 0x34 && p[107] == 0x12 && p[103] == 0 &&
              p[108] == 0,
          "the store wrote its 4 bytes and nothing else");
    munmap(p, (size_t)size);

    /* An address nothing is mapped at: the access fails, the context is
     * left as it was (the caller then steps). */
    at(load16);
    uc.uc_mcontext.gregs[REG_RSI] = (greg_t)(uintptr_t)p;
    uc.uc_mcontext.gregs[REG_RAX] = 7;
    CHECK(sg_emulate_decode(&uc, &a) && sg_emulate_access(&uc, &a) == 0 &&
              uc.uc_mcontext.gregs[REG_RAX] == 7 &&
              (uintptr_t)uc.uc_mcontext.gregs[REG_RIP] == (uintptr_t)load16,
          "an unmapped address: 0, context untouched");
}

int main(void)
{
    addressing();
    stores();
    loads();
    not_emulated();
    sse();
    through_protection();
    return unit_done();
}

#endif
