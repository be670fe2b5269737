/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_emulated: plain loads and stores of a guarded page's
 * neighbour bytes are done by syncguard's fault handler (emulated through
 * /proc/self/mem, not single-stepped), with the right values in memory and
 * in the registers. A copy into the first 256 bytes of a registered static
 * page is held in flight; the host then runs, on other bytes of that page,
 * one instruction of each form (inline assembly, so that the forms are
 * certain): MOV stores from byte registers (AH, R9B), of immediates, of
 * 16/32/64-bit registers and a sign-extended imm32; loads into AL, AH,
 * R9B (upper bits kept), CX (upper 48 kept), EDX (upper half zeroed),
 * R10; MOVZX, MOVSX, MOVSXD; SIB with scale and disp8/disp32, R12 and R13
 * bases, an R11 index; RIP-relative loads and stores; SSE MOVDQU and
 * MOVQ stores, MOVUPS and MOVSS loads. Then two that are
 * stepped: an add to memory (not a plain move) and a load straddling
 * the page's end. 33 emulated, 2 stepped, no report; after
 * cuStreamSynchronize the copy's bytes and every stored value are there.
 * Twin: robust_neighbour_emulated_race (one more load, of a copy byte,
 * through the same decoder's forms: reported).
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=2, faults_emulated=33, faults_settled=0,
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sgtest.h"
#include "sgt_x86_only.h"

#if !defined(__x86_64__)
SGT_X86_ONLY("x86 MOV/MOVZX/MOVSX/SSE forms in assembly; aarch64: robust_neighbour_emulated_a64")
#else

#define PAGE 4096
#define COPIED 256u /* the copy covers [0, COPIED) of page 0 */
#define NEW 0xab
#define Q 1024 /* stores go to [Q, Q+512) */
#define L 1536 /* loads read [L, L+16) */

static unsigned char buf[3 * PAGE] __asm__("sgt_emul_buf") __attribute__((aligned(PAGE)));

static unsigned wrong;

static void expect(uint64_t got, uint64_t want, const char *what)
{
    if (got != want) {
        printf("%s: %#llx, expected %#llx\n", what, (unsigned long long)got,
               (unsigned long long)want);
        wrong++;
    }
}

static void stores(unsigned char *q)
{
    uint64_t rcx = 2;
    __asm__ volatile("movb %%ah, 1(%%rsi)" ::"S"(q), "a"(0x2200ul) : "memory");
    __asm__ volatile("mov $0x33, %%r9d\n\tmovb %%r9b, 2(%%rsi)" ::"S"(q) : "r9", "memory");
    __asm__ volatile("movb $0x44, 3(%%rsi)" ::"S"(q) : "memory");
    __asm__ volatile("movw %%cx, 4(%%rsi)" ::"S"(q), "c"(0x5566ul) : "memory");
    __asm__ volatile("movw $0x7788, 6(%%rsi)" ::"S"(q) : "memory");
    __asm__ volatile("movl %%edx, 8(%%rsi)" ::"S"(q), "d"(0x12345678ul) : "memory");
    __asm__ volatile("movl $0x99aabbcc, 12(%%rsi)" ::"S"(q) : "memory");
    __asm__ volatile("mov %0, %%r10\n\tmovq %%r10, 16(%%rsi)" ::"r"(0x0102030405060708ul), "S"(q)
                     : "r10", "memory");
    __asm__ volatile("movq $-2, 24(%%rsi)" ::"S"(q) : "memory");
    __asm__ volatile("movq %%rdx, 64(%%rsi,%%rcx,8)" ::"S"(q), "c"(1ul), "d"(0x1111222233334444ul)
                     : "memory"); /* q+72 */
    __asm__ volatile("movl %%eax, 0x200(%%rsi,%%rcx,4)" ::"S"(q - 0x200 + 80 - 8), "c"(rcx),
                     "a"(0xcafef00dul)
                     : "memory"); /* q+80 */
    __asm__ volatile("mov %0, %%r12\n\tmovl %%eax, (%%r12)" ::"r"(q + 96), "a"(0x0badcafeul)
                     : "r12", "memory");
    __asm__ volatile("mov %0, %%r13\n\tmovl %%eax, (%%r13)" ::"r"(q + 100), "a"(0xdeadbeeful)
                     : "r13", "memory");
    __asm__ volatile("mov $52, %%r11\n\tmovw %%ax, (%%rsi,%%r11,2)" ::"S"(q), "a"(0xbeeful)
                     : "r11", "memory"); /* q+104 */
    __asm__ volatile("movl %%eax, sgt_emul_buf+1024+200(%%rip)" ::"a"(0x600dd00dul) : "memory");
}

static void check_stores(const unsigned char *q)
{
    uint16_t w;
    uint32_t l;
    uint64_t x;
    expect(q[1], 0x22, "movb %ah, mem");
    expect(q[2], 0x33, "movb %r9b, mem");
    expect(q[3], 0x44, "movb $imm, mem");
    memcpy(&w, q + 4, 2), expect(w, 0x5566, "movw %cx, mem");
    memcpy(&w, q + 6, 2), expect(w, 0x7788, "movw $imm, mem");
    memcpy(&l, q + 8, 4), expect(l, 0x12345678, "movl %edx, mem");
    memcpy(&l, q + 12, 4), expect(l, 0x99aabbcc, "movl $imm, mem");
    memcpy(&x, q + 16, 8), expect(x, 0x0102030405060708ul, "movq %r10, mem");
    memcpy(&x, q + 24, 8), expect(x, 0xfffffffffffffffeul, "movq $-2, mem");
    memcpy(&x, q + 72, 8), expect(x, 0x1111222233334444ul, "movq, SIB scale 8 disp8");
    memcpy(&l, q + 80, 4), expect(l, 0xcafef00d, "movl, SIB scale 4 disp32");
    memcpy(&l, q + 96, 4), expect(l, 0x0badcafe, "movl, base r12");
    memcpy(&l, q + 100, 4), expect(l, 0xdeadbeef, "movl, base r13");
    memcpy(&w, q + 104, 2), expect(w, 0xbeef, "movw, index r11");
    memcpy(&l, q + 200, 4), expect(l, 0x600dd00d, "movl, RIP-relative store");
    expect(q[0], 0xee, "a byte no store touched");
    for (int k = 0; k < 16; k++)
        expect(q[128 + k], (uint64_t)k + 1, "movdqu store");
    for (int k = 0; k < 8; k++)
        expect(q[144 + k], (uint64_t)k + 1, "movq store");
    expect(q[152], 0xee, "past the movq store");
}

static void loads(const unsigned char *p)
{
    uint64_t a, c, d;
    a = 0x1111111111111111ul;
    __asm__ volatile("movb (%%rsi), %%al" : "+a"(a) : "S"(p));
    expect(a, 0x1111111111111181ul, "movb mem, %al keeps the rest");
    a = 0x1111111111111111ul;
    __asm__ volatile("movb (%%rsi), %%ah" : "+a"(a) : "S"(p));
    expect(a, 0x1111111111118111ul, "movb mem, %ah");
    __asm__ volatile("mov $-1, %%r9\n\tmovb (%%rsi), %%r9b\n\tmov %%r9, %0" : "=r"(a) : "S"(p)
                     : "r9");
    expect(a, 0xffffffffffffff81ul, "movb mem, %r9b");
    c = 0x2222222222222222ul;
    __asm__ volatile("movw 2(%%rsi), %%cx" : "+c"(c) : "S"(p));
    expect(c, 0x2222222222228182ul, "movw mem, %cx keeps the upper 48 bits");
    d = ~0ul;
    __asm__ volatile("movl 4(%%rsi), %%edx" : "+d"(d) : "S"(p));
    expect(d, 0x81828384ul, "movl mem, %edx zeroes the upper half");
    __asm__ volatile("movq 8(%%rsi), %%r10\n\tmov %%r10, %0" : "=r"(a) : "S"(p) : "r10");
    expect(a, 0x8182838485868788ul, "movq mem, %r10");
    a = ~0ul;
    __asm__ volatile("movzbl (%%rsi), %%eax" : "+a"(a) : "S"(p));
    expect(a, 0x81, "movzbl");
    a = ~0ul;
    __asm__ volatile("movzwl 2(%%rsi), %%eax" : "+a"(a) : "S"(p));
    expect(a, 0x8182, "movzwl");
    __asm__ volatile("movsbq (%%rsi), %%rax" : "=a"(a) : "S"(p));
    expect(a, 0xffffffffffffff81ul, "movsbq");
    a = ~0ul;
    __asm__ volatile("movswl 2(%%rsi), %%eax" : "+a"(a) : "S"(p));
    expect(a, 0xffff8182ul, "movswl (32-bit destination: upper half zero)");
    __asm__ volatile("movslq 4(%%rsi), %%rax" : "=a"(a) : "S"(p));
    expect(a, 0xffffffff81828384ul, "movslq (movsxd)");
    a = 0x3333333333333333ul;
    __asm__ volatile("movsbw (%%rsi), %%ax" : "+a"(a) : "S"(p));
    expect(a, 0x333333333333ff81ul, "movsbw keeps the upper 48 bits");
    __asm__ volatile("movl 8(%%rsi,%%rcx,4), %%eax" : "=a"(a) : "S"(p), "c"(1ul));
    expect(a, 0x81828384ul, "movl, SIB load");
    __asm__ volatile("movl sgt_emul_buf+1536+4(%%rip), %%eax" : "=a"(a));
    expect(a, 0x81828384ul, "movl, RIP-relative load");
}

/* SSE moves: the XMM registers live in the signal frame's FP state. */
static void sse(unsigned char *q, const unsigned char *p)
{
    static const unsigned char v[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    unsigned char x[16];
    __asm__ volatile("movdqu (%0), %%xmm1\n\tmovdqu %%xmm1, 128(%%rsi)" ::"r"(v), "S"(q)
                     : "xmm1", "memory"); /* store q+128..143 */
    __asm__ volatile("movq %%xmm1, 144(%%rsi)" ::"S"(q) : "memory"); /* q+144..151 */
    __asm__ volatile("movups (%%rsi), %%xmm2\n\tmovdqu %%xmm2, (%0)" ::"r"(x), "S"(p)
                     : "xmm2", "memory");
    expect(x[0] == 0x81 && x[2] == 0x82 && x[8] == 0x88 && x[15] == 0x81, 1, "movups load");
    __asm__ volatile("pcmpeqd %%xmm3, %%xmm3\n\tmovss 4(%%rsi), %%xmm3\n\tmovdqu %%xmm3, (%0)" ::"r"(x),
                     "S"(p)
                     : "xmm3", "memory");
    uint32_t lo, rest[3];
    memcpy(&lo, x, 4), memcpy(rest, x + 4, 12);
    expect(lo, 0x81828384, "movss load");
    expect(rest[0] | rest[1] | rest[2], 0, "movss from memory zeroes the rest");
}

/* Not emulated: stepped as before. */
static void stepped(unsigned char *q)
{
    uint64_t a;
    __asm__ volatile("addl $1, 40(%%rsi)" ::"S"(q) : "memory", "cc");
    __asm__ volatile("movq (%%rsi), %%rax" : "=a"(a) : "S"(buf + PAGE - 4));
    expect(a, 0x0706050400000000ul | 0xeeeeeeeeul, "a load straddling the page end");
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_bytes(COPIED, NEW);
    memset(buf, 0xee, sizeof buf);
    static const unsigned char pre[16] = { 0x81, 0,    0x82, 0x81, 0x84, 0x83, 0x82, 0x81,
                                           0x88, 0x87, 0x86, 0x85, 0x84, 0x83, 0x82, 0x81 };
    memcpy(buf + L, pre, sizeof pre);
    uint32_t forty = 41;
    memcpy(buf + Q + 40, &forty, 4);
    for (int k = 0; k < 4; k++)
        buf[PAGE + k] = (unsigned char)(4 + k);
    SGT_CHECK(cuMemHostRegister(buf, sizeof buf, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(buf, dev, COPIED, s));
    sgt_release_when_host_waits(hold);

    stores(buf + Q);
    loads(buf + L);
    sse(buf + Q, buf + L);
    stepped(buf + Q);
#ifdef SG_TWIN
    uint32_t early;
    __asm__ volatile("movl 16(%%rdi), %%eax" : "=a"(early) : "D"(buf));
    expect(early, 0xabababab, "the racy load (after syncguard waited for the copy)");
#endif

    SGT_CHECK(cuStreamSynchronize(s));
    check_stores(buf + Q);
    uint32_t l;
    memcpy(&l, buf + Q + 40, 4), expect(l, 42, "addl $1, mem (stepped)");
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
