/* SPDX-License-Identifier: Apache-2.0 */
/* Decoding x86-64 rep string instructions (rep movs, stos, lods, cmps,
 * scas). Such an instruction faults once per iteration on a guarded page,
 * so instead of single-stepping it through every neighbour byte, the
 * handler asks what memory the rest of it will read and write (from RSI,
 * RDI, RCX and the direction flag) and checks that against the copies:
 * a race found there is reported at once, and only then is the page
 * opened. Signal-safe: reads the instruction bytes and the context only. */
#include "config.h"

#include <ucontext.h>

#include "fault/strings.h"

#define MAX_PREFIXES 14
#define DIRECTION_FLAG 0x400

/* The bytes a string operation on reg will touch: count elements of size
 * bytes, upwards or (direction flag) downwards, starting at reg. */
static void span(uintptr_t reg, uint64_t count, unsigned size, int down, uintptr_t *lo,
                 uintptr_t *hi)
{
    uint64_t bytes = count * size;
    if (count > (UINT64_MAX / 8) || bytes > ((uint64_t)1 << 47))
        bytes = (uint64_t)1 << 47; /* nonsense count: clamp */
    if (!down) {
        *lo = reg, *hi = reg + bytes;
    } else {
        *lo = reg + size > bytes ? reg + size - bytes : 0;
        *hi = reg + size;
    }
}

int sg_decode_string_op(const ucontext_t *uc, struct sg_string_op *op)
{
    const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
    int rep = 0, opsize16 = 0, rex_w = 0, i = 0;
    for (; i < MAX_PREFIXES; i++) {
        unsigned char b = ip[i];
        if (b == 0xF3 || b == 0xF2)
            rep = 1;
        else if (b == 0x66)
            opsize16 = 1;
        else if (b == 0x67 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26 || b == 0x64 ||
                 b == 0x65)
            ;
        else if ((b & 0xF0) == 0x40)
            rex_w = (b & 0x08) != 0;
        else
            break;
    }
    unsigned char opc = ip[i];
    if (!rep || opc < 0xA4 || opc > 0xAF || opc == 0xA8 || opc == 0xA9)
        return 0; /* not a rep string instruction (A8/A9 are test) */
    unsigned size = (opc & 1) ? (rex_w ? 8 : opsize16 ? 2 : 4) : 1;
    uint64_t count = (uint64_t)uc->uc_mcontext.gregs[REG_RCX];
    int down = (uc->uc_mcontext.gregs[REG_EFL] & DIRECTION_FLAG) != 0;
    uintptr_t si = (uintptr_t)uc->uc_mcontext.gregs[REG_RSI];
    uintptr_t di = (uintptr_t)uc->uc_mcontext.gregs[REG_RDI];
    op->nread = op->nwrite = 0;
    switch (opc & ~1) {
    case 0xA4: /* movs: read [rsi], write [rdi] */
        span(si, count, size, down, &op->read_lo[op->nread], &op->read_hi[op->nread]), op->nread++;
        span(di, count, size, down, &op->write_lo, &op->write_hi), op->nwrite = 1;
        break;
    case 0xAA: /* stos */
        span(di, count, size, down, &op->write_lo, &op->write_hi), op->nwrite = 1;
        break;
    case 0xAC: /* lods */
        span(si, count, size, down, &op->read_lo[op->nread], &op->read_hi[op->nread]), op->nread++;
        break;
    case 0xA6: /* cmps: read both */
        span(si, count, size, down, &op->read_lo[op->nread], &op->read_hi[op->nread]), op->nread++;
        span(di, count, size, down, &op->read_lo[op->nread], &op->read_hi[op->nread]), op->nread++;
        break;
    case 0xAE: /* scas */
        span(di, count, size, down, &op->read_lo[op->nread], &op->read_hi[op->nread]), op->nread++;
        break;
    }
    return 1;
}

/* 1 if the context's instruction is an atomic read-modify-write: a lock
 * prefix, or xchg with memory (locked without one). What glibc does to the
 * word of every mutex, semaphore, condition variable, rwlock and barrier
 * before it waits for it with futex(). */
int sg_is_atomic_rmw(const ucontext_t *uc)
{
    const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
    int i = 0;
    for (; i < MAX_PREFIXES; i++) {
        unsigned char b = ip[i];
        if (b == 0xF0)
            return 1;
        if (!(b == 0xF3 || b == 0xF2 || b == 0x66 || b == 0x67 || b == 0x2E || b == 0x36 ||
              b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65 || (b & 0xF0) == 0x40))
            break;
    }
    return ip[i] == 0x86 || ip[i] == 0x87; /* faulted on memory: the operand is memory */
}
