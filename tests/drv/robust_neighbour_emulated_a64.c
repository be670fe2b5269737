/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_emulated_a64: the aarch64 counterpart of
 * robust_neighbour_emulated. Plain loads and stores of a guarded page's
 * neighbour bytes are done by syncguard's fault handler (decoded by
 * fault/emulate_aarch64.c, done through /proc/self/mem), with the right
 * values in memory and in the registers. A copy into the first 256 bytes
 * of a registered page is held in flight; the host then runs, on other
 * bytes of that page, one instruction of each form (inline assembly, so
 * that the forms are certain): STRB/STRH/STR W/STR X/STR XZR with
 * unsigned offsets, STUR, register offsets (LSL, UXTW), pre- and
 * post-index (the base written back), STP of W, X, D and Q registers,
 * STR Q; LDRB/LDRH/LDR W/LDR X, LDRSB into W and X, LDRSH, LDRSW, LDUR,
 * SXTW register offsets, post-index, LDP of X (and LDPSW), LDR S/D/Q and
 * LDP Q. Then one that is not emulated (LDAR, an ordered load): the page
 * is settled (opened once the copy is done). 34 emulated, 1 settled, no
 * report; after cuStreamSynchronize the copy's bytes and every stored
 * value are there. Twin: robust_neighbour_emulated_a64_race (one more
 * load, of a copy byte: reported).
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=0, faults_emulated=34, faults_settled=1,
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgtest.h"

#if !defined(__aarch64__)
int main(void)
{
    printf("SKIP: aarch64 only: aarch64 load/store forms in assembly; x86-64: "
           "robust_neighbour_emulated\n");
    return 77;
}
#else

#define MAX_PAGE 65536 /* the largest page aarch64 Linux has */
#define COPIED 256u    /* the copy covers [0, COPIED) of page 0 */
#define NEW 0xab
#define Q 1024 /* stores go to [Q, Q+512) */
#define L 1536 /* loads read [L, L+64) */

static unsigned char buf[2 * MAX_PAGE] __attribute__((aligned(MAX_PAGE)));
static unsigned wrong;

static void expect(uint64_t got, uint64_t want, const char *what)
{
    if (got != want) {
        printf("%s: %#llx, expected %#llx\n", what, (unsigned long long)got,
               (unsigned long long)want);
        wrong++;
    }
}

/* 20 accesses: 16 stores, and the 4 loads of V registers they store. */
static void stores(unsigned char *q)
{
    unsigned char *b = q;
    __asm__ volatile("strb %w0, [%1]" ::"r"(0x11), "r"(q) : "memory");
    __asm__ volatile("strh %w0, [%1, #2]" ::"r"(0x2222), "r"(q) : "memory");
    __asm__ volatile("str %w0, [%1, #4]" ::"r"(0x33333333), "r"(q) : "memory");
    __asm__ volatile("str %0, [%1, #8]" ::"r"(0x0102030405060708ul), "r"(q) : "memory");
    __asm__ volatile("stur %w0, [%1, #17]" ::"r"(0x44454647), "r"(q) : "memory");
    __asm__ volatile("str %0, [%1, %2, lsl #3]" ::"r"(0x5555666677778888ul), "r"(q), "r"(3ul)
                     : "memory"); /* q+24 */
    __asm__ volatile("strb %w0, [%1, %w2, uxtw]" ::"r"(0x99), "r"(q), "r"(0xffffffff00000021ul)
                     : "memory"); /* q+33 */
    __asm__ volatile("stp %0, %1, [%2, #40]" ::"r"(0xa1a2a3a4a5a6a7a8ul), "r"(0xb1b2b3b4b5b6b7b8ul),
                     "r"(q)
                     : "memory");
    __asm__ volatile("stp %w0, %w1, [%2, #56]" ::"r"(0xc1c2c3c4), "r"(0xd1d2d3d4), "r"(q) : "memory");
    /* Operand 0 is the base (written back), operand 1 the value. */
    __asm__ volatile("str %1, [%0, #64]!" : "+r"(b) : "r"(0x1e1e1e1e1e1e1e1eul) : "memory");
    expect((uint64_t)(b - q), 64, "str pre-index: the base written back");
    b = q + 80;
    __asm__ volatile("str %1, [%0], #16" : "+r"(b) : "r"(0x2f2f2f2f2f2f2f2ful) : "memory");
    expect((uint64_t)(b - q), 96, "str post-index: the base written back");
    __asm__ volatile("str xzr, [%0, #72]" ::"r"(q) : "memory");
    __asm__ volatile("ldr q5, [%0]\n\tstr q5, [%1, #96]" ::"r"(q + L - Q), "r"(q) : "v5", "memory");
    __asm__ volatile("ldr d6, [%0]\n\tstr d6, [%1, #112]" ::"r"(q + L - Q + 8), "r"(q)
                     : "v6", "memory");
    __asm__ volatile("ldp q5, q6, [%0]\n\tstp q5, q6, [%1, #128]" ::"r"(q + L - Q), "r"(q)
                     : "v5", "v6", "memory");
    __asm__ volatile("ldp d5, d6, [%0]\n\tstp d6, d5, [%1, #160]" ::"r"(q + L - Q), "r"(q)
                     : "v5", "v6", "memory");
}

static uint64_t le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

static void check_stores(const unsigned char *q, const unsigned char *pre)
{
    expect(q[0], 0x11, "strb"), expect(le(q + 2, 2), 0x2222, "strh");
    expect(le(q + 4, 4), 0x33333333, "str w"), expect(le(q + 8, 8), 0x0102030405060708ul, "str x");
    expect(le(q + 17, 4), 0x44454647, "stur w"), expect(le(q + 24, 8), 0x5555666677778888ul, "lsl");
    expect(q[32], 0xee, "uxtw: not q+32"), expect(q[33], 0x99, "strb uxtw");
    expect(le(q + 40, 8), 0xa1a2a3a4a5a6a7a8ul, "stp x (1)");
    expect(le(q + 48, 8), 0xb1b2b3b4b5b6b7b8ul, "stp x (2)");
    expect(le(q + 56, 8), 0xd1d2d3d4c1c2c3c4ul, "stp w");
    expect(le(q + 64, 8), 0x1e1e1e1e1e1e1e1eul, "str pre-index");
    expect(le(q + 72, 8), 0, "str xzr");
    expect(le(q + 80, 8), 0x2f2f2f2f2f2f2f2ful, "str post-index");
    expect(memcmp(q + 96, pre, 16), 0, "str q");
    expect(memcmp(q + 112, pre + 8, 8), 0, "str d");
    expect(memcmp(q + 128, pre, 32), 0, "stp q");
    expect(memcmp(q + 160, pre + 8, 8) | memcmp(q + 168, pre, 8), 0, "stp d");
    expect(q[120], 0xee, "nothing past str d");
}

/* 14 loads (4 more ran in stores: LDR Q, LDR D, LDP Q, LDP D). */
static void loads(const unsigned char *p)
{
    uint64_t a, b;
    const unsigned char *base = p;
    __asm__ volatile("ldrb %w0, [%1]" : "=r"(a) : "r"(p));
    expect(a, 0x81, "ldrb");
    __asm__ volatile("ldrh %w0, [%1, #2]" : "=r"(a) : "r"(p));
    expect(a, 0x8483, "ldrh");
    __asm__ volatile("mov %0, #-1\n\tldr %w0, [%1, #4]" : "=&r"(a) : "r"(p));
    expect(a, 0x88878685, "ldr w: the upper half zeroed");
    __asm__ volatile("ldr %0, [%1, #8]" : "=r"(a) : "r"(p));
    expect(a, 0x908f8e8d8c8b8a89ul, "ldr x");
    __asm__ volatile("ldrsb %0, [%1]" : "=r"(a) : "r"(p));
    expect(a, 0xffffffffffffff81ul, "ldrsb x");
    __asm__ volatile("mov %0, #-1\n\tldrsb %w0, [%1]" : "=&r"(a) : "r"(p));
    expect(a, 0xffffff81ul, "ldrsb w");
    __asm__ volatile("ldrsh %0, [%1, #2]" : "=r"(a) : "r"(p));
    expect(a, 0xffffffffffff8483ul, "ldrsh");
    __asm__ volatile("ldrsw %0, [%1, #4]" : "=r"(a) : "r"(p));
    expect(a, 0xffffffff88878685ul, "ldrsw");
    __asm__ volatile("ldur %0, [%1, #3]" : "=r"(a) : "r"(p));
    expect(a, 0x8b8a898887868584ul, "ldur");
    __asm__ volatile("ldr %w0, [%1, %w2, sxtw #2]" : "=r"(a) : "r"(p + 8), "r"(-1));
    expect(a, 0x88878685, "ldr sxtw #2 (p+8-4)");
    __asm__ volatile("ldr %0, [%1], #8" : "=r"(a), "+r"(base));
    expect(a, 0x8887868584838281ul, "post");
    expect((uint64_t)(base - p), 8, "ldr post-index: the base written back");
    __asm__ volatile("ldp %0, %1, [%2]" : "=&r"(a), "=&r"(b) : "r"(p));
    expect(a ^ b, 0x8887868584838281ul ^ 0x908f8e8d8c8b8a89ul, "ldp x");
    __asm__ volatile("ldpsw %0, %1, [%2]" : "=&r"(a), "=&r"(b) : "r"(p));
    expect(a, 0xffffffff84838281ul, "ldpsw (1)"), expect(b, 0xffffffff88878685ul, "ldpsw (2)");
    uint32_t s;
    __asm__ volatile("ldr s7, [%1, #12]\n\tfmov %w0, s7" : "=r"(s) : "r"(p) : "v7");
    expect(s, 0x908f8e8d, "ldr s");
}

#ifndef SG_TWIN
/* Not emulated: settled (the page opened once the copy is done). */
static void settled(const unsigned char *p)
{
    uint64_t a;
    __asm__ volatile("ldar %0, [%1]" : "=r"(a) : "r"(p));
    expect(a, 0x8887868584838281ul, "ldar");
}
#endif

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page > MAX_PAGE) {
        printf("SKIP: a page of %zu bytes\n", page);
        return 77;
    }
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_bytes(COPIED, NEW);
    memset(buf, 0xee, sizeof buf);
    unsigned char pre[32];
    for (int k = 0; k < 32; k++)
        pre[k] = (unsigned char)(0x81 + k);
    memcpy(buf + L, pre, sizeof pre);
    SGT_CHECK(cuMemHostRegister(buf, page, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(buf, dev, COPIED, s));
    sgt_release_when_host_waits(hold);

    stores(buf + Q);
    loads(buf + L);
#ifdef SG_TWIN
    uint32_t early;
    __asm__ volatile("ldr %w0, [%1, #16]" : "=r"(early) : "r"(buf));
    expect(early, 0xabababab, "the racy load (after syncguard waited for the copy)");
#else
    settled(buf + L);
#endif

    SGT_CHECK(cuStreamSynchronize(s));
    check_stores(buf + Q, pre);
    for (unsigned i = 0; i < COPIED; i++)
        if (buf[i] != NEW) {
            printf("copy byte %u: %#x\n", i, buf[i]);
            wrong++;
            break;
        }
    SGT_CHECK(cuMemHostUnregister(buf));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    printf("%u wrong\n", wrong);
    printf(wrong ? "check: MISMATCH\n" : "check: ok\n");
    return wrong != 0;
}

#endif
