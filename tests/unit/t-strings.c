/* SPDX-License-Identifier: Apache-2.0 */
/* The rep-string decoder (fault/strings.c): which memory the rest of an
 * interrupted rep movs/stos/lods/cmps/scas reads and writes, by operand
 * size, prefixes and the direction flag; anything else is no string op.
 * And sg_is_atomic_rmw: which instructions are atomic read-modify-writes. */
#define _GNU_SOURCE /* REG_RIP and the other register names */
#include <string.h>
#include <ucontext.h>

#include "fault/strings.h"
#include "unit.h"

#if !defined(__x86_64__)
#include <stdio.h>
int main(void)
{
    printf("SKIP: x86-64 only: the rep string decoder (aarch64 has no rep string instructions)\n");
    return 77;
}
#else

#define DF 0x400

static int decode(const unsigned char *code, long rsi, long rdi, long rcx, int down,
                  struct sg_string_op *op)
{
    ucontext_t uc;
    memset(&uc, 0, sizeof uc);
    uc.uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)code;
    uc.uc_mcontext.gregs[REG_RSI] = rsi;
    uc.uc_mcontext.gregs[REG_RDI] = rdi;
    uc.uc_mcontext.gregs[REG_RCX] = rcx;
    uc.uc_mcontext.gregs[REG_EFL] = down ? DF : 0;
    memset(op, 0xff, sizeof *op);
    return sg_decode_string_op(&uc, op);
}

static int atomic(const unsigned char *code)
{
    ucontext_t uc;
    memset(&uc, 0, sizeof uc);
    uc.uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)code;
    return sg_is_atomic_rmw(&uc);
}

int main(void)
{
    struct sg_string_op op;
    static const unsigned char movsb[] = { 0xf3, 0xa4 }, movsq[] = { 0xf3, 0x48, 0xa5 },
                               movsw[] = { 0x66, 0xf3, 0xa5 }, movsd[] = { 0xf3, 0xa5 },
                               stosb[] = { 0xf3, 0xaa }, lodsb[] = { 0xf3, 0xac },
                               cmpsb[] = { 0xf3, 0xa6 }, scasq[] = { 0xf2, 0x48, 0xaf },
                               plain_movsb[] = { 0xa4 }, test_al[] = { 0xf3, 0xa8 },
                               nop[] = { 0x90 };

    CHECK(decode(movsb, 0x1000, 0x8000, 16, 0, &op) == 1, "rep movsb is a string op");
    CHECK(op.nread == 1 && op.read_lo[0] == 0x1000 && op.read_hi[0] == 0x1010 && op.nwrite == 1 &&
              op.write_lo == 0x8000 && op.write_hi == 0x8010,
          "rep movsb reads [rsi, rsi+rcx) and writes [rdi, rdi+rcx)");
    CHECK(decode(movsq, 0x1000, 0x8000, 4, 0, &op) == 1 && op.read_hi[0] == 0x1020 &&
              op.write_hi == 0x8020,
          "REX.W: 8-byte elements");
    CHECK(decode(movsw, 0x1000, 0x8000, 4, 0, &op) == 1 && op.write_hi == 0x8008,
          "operand-size prefix: 2-byte elements");
    CHECK(decode(movsd, 0x1000, 0x8000, 4, 0, &op) == 1 && op.write_hi == 0x8010,
          "no prefix: 4-byte elements");
    CHECK(decode(movsb, 0x1000, 0x8000, 16, 1, &op) == 1 && op.read_lo[0] == 0x0ff1 &&
              op.read_hi[0] == 0x1001 && op.write_lo == 0x7ff1 && op.write_hi == 0x8001,
          "direction flag: the bytes below and including rsi/rdi");
    CHECK(decode(movsq, 0x1000, 0x8000, 2, 1, &op) == 1 && op.write_lo == 0x7ff8 &&
              op.write_hi == 0x8008,
          "direction flag with 8-byte elements: down from the element at rdi");
    CHECK(decode(stosb, 0, 0x8000, 3, 0, &op) == 1 && op.nread == 0 && op.nwrite == 1 &&
              op.write_lo == 0x8000 && op.write_hi == 0x8003,
          "rep stos only writes [rdi, ...)");
    CHECK(decode(lodsb, 0x1000, 0, 3, 0, &op) == 1 && op.nread == 1 && op.nwrite == 0 &&
              op.read_hi[0] == 0x1003,
          "rep lods only reads [rsi, ...)");
    CHECK(decode(cmpsb, 0x1000, 0x8000, 5, 0, &op) == 1 && op.nread == 2 && op.nwrite == 0 &&
              op.read_lo[1] == 0x8000 && op.read_hi[1] == 0x8005,
          "repe cmps reads both");
    CHECK(decode(scasq, 0, 0x8000, 1, 0, &op) == 1 && op.nread == 1 && op.nwrite == 0 &&
              op.read_lo[0] == 0x8000 && op.read_hi[0] == 0x8008,
          "repne scasq reads [rdi, ...)");
    CHECK(decode(movsb, 0x1000, 0x8000, 0, 0, &op) == 1 && op.write_lo == op.write_hi,
          "rcx 0: nothing left to touch");
    CHECK(decode(movsb, 0x1000, 0x8000, -1, 0, &op) == 1 &&
              op.write_hi - op.write_lo == (uintptr_t)1 << 47,
          "a nonsense count is clamped");
    CHECK(decode(plain_movsb, 0x1000, 0x8000, 16, 0, &op) == 0, "movs without rep is not decoded");
    CHECK(decode(test_al, 0x1000, 0x8000, 16, 0, &op) == 0, "A8 (test) is no string op");
    CHECK(decode(nop, 0x1000, 0x8000, 16, 0, &op) == 0, "nop is no string op");

    /* Atomic read-modify-writes: what marks a page as holding a lock word. */
    static const unsigned char lock_cmpxchg[] = { 0xf0, 0x0f, 0xb1, 0x17 },    /* lock cmpxchg %edx,(%rdi) */
        lock_xadd_q[] = { 0xf0, 0x48, 0x0f, 0xc1, 0x07 },                      /* lock xadd %rax,(%rdi) */
        cs_lock_dec[] = { 0x2e, 0xf0, 0xff, 0x0f },                            /* cs lock decl (%rdi) */
        xchg[] = { 0x87, 0x07 },                                               /* xchg %eax,(%rdi) */
        rex_xchg[] = { 0x48, 0x87, 0x07 },                                     /* xchg %rax,(%rdi) */
        mov_load[] = { 0x8b, 0x07 },                                           /* mov (%rdi),%eax */
        cmpxchg_plain[] = { 0x0f, 0xb1, 0x17 };                                /* cmpxchg, no lock */
    CHECK(atomic(lock_cmpxchg) && atomic(lock_xadd_q) && atomic(cs_lock_dec),
          "lock-prefixed instructions are atomic read-modify-writes, after other prefixes too");
    CHECK(atomic(xchg) && atomic(rex_xchg), "xchg with memory is locked without a prefix");
    CHECK(!atomic(mov_load) && !atomic(cmpxchg_plain) && !atomic(movsb) && !atomic(nop),
          "plain loads, unlocked cmpxchg and string ops are not");
    return unit_done();
}

#endif
