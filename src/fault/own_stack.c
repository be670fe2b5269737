/* SPDX-License-Identifier: Apache-2.0 */
/* The fault handlers' work runs on a stack of syncguard's own. The kernel
 * starts a handler on the thread's alternate signal stack when it has one
 * (syncguard's handlers are SA_ONSTACK, so that a fault near the end of a
 * thread's stack is still handled), and those can be small: Rust gives
 * every thread 8 KiB, of which the kernel's signal frame takes 1 to 4 KiB
 * (more with AVX-512 state). Reporting a race (unwinding the faulting
 * stack with libunwind, describing the race) needs several KiB more, and
 * overflowed such a stack: heap corruption or death. So each handler only
 * switches to one of a few preallocated syncguard stacks (mapped with a
 * guard page below, on first use: mmap is a system call, no allocator
 * involved) and does everything there; it uses under half a KiB of the
 * stack it arrived on. Only when it arrived on an alternate stack with
 * less than 64 KiB left: on the thread's own stack (no alternate stack,
 * the common case) the work stays there, at no cost.
 *
 * While the work runs there, that stack is also the thread's alternate
 * signal stack: a signal arriving meanwhile (the program's handler with
 * SA_ONSTACK) must nest below the work's frames, not start again at the top
 * of the program's alternate stack, where the interrupted handler's own
 * frame lies. The program's setting is restored before the handler returns. */
#include "config.h"

#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"
#include "fault/fault.h"

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31) /* Linux 4.7; older headers lack it */
#endif

#define STACKS 16
#define ROOM (64 * 1024) /* an alternate stack with less left below is small */
#define STACK_BYTES (256 * 1024) /* unwinding and reporting need a few KiB; generous */

static struct {
    atomic_int busy;
    void *base; /* STACK_BYTES, the lowest page inaccessible; NULL until first used */
} stacks[STACKS];

/* Calls fn(arg) with the stack pointer at top (16-byte aligned). */
void sg_call_on_stack(void *arg, void (*fn)(void *), void *top);
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl sg_call_on_stack\n"
        ".hidden sg_call_on_stack\n"
        ".type sg_call_on_stack, @function\n"
        "sg_call_on_stack:\n"
        "  .cfi_startproc\n"
        "  push %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  mov %rsp, %rbp\n"
        "  .cfi_def_cfa_register %rbp\n"
        "  mov %rdx, %rsp\n"
        "  call *%rsi\n"
        "  mov %rbp, %rsp\n"
        "  pop %rbp\n"
        "  .cfi_def_cfa %rsp, 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size sg_call_on_stack, .-sg_call_on_stack\n");
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl sg_call_on_stack\n"
        ".hidden sg_call_on_stack\n"
        ".type sg_call_on_stack, %function\n"
        "sg_call_on_stack:\n"
        "  .cfi_startproc\n"
        "  stp x29, x30, [sp, #-16]!\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset x29, -16\n"
        "  .cfi_offset x30, -8\n"
        "  mov x29, sp\n"
        "  .cfi_def_cfa_register x29\n"
        "  mov sp, x2\n"
        "  blr x1\n"
        "  mov sp, x29\n"
        "  .cfi_def_cfa_register sp\n"
        "  ldp x29, x30, [sp], #16\n"
        "  .cfi_def_cfa_offset 0\n"
        "  .cfi_restore x29\n"
        "  .cfi_restore x30\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size sg_call_on_stack, .-sg_call_on_stack\n");
#endif

static void *map_stack(void)
{
    long page = sysconf(_SC_PAGESIZE);
    void *p = (void *)syscall(SYS_mmap, NULL, (size_t)STACK_BYTES, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    syscall(SYS_mprotect, p, (size_t)page, PROT_NONE); /* overflow faults, never corrupts */
    return p;
}

/* A free stack (claimed), or -1 when all are busy or none can be mapped. */
static int claim(void)
{
    for (int i = 0; i < STACKS; i++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&stacks[i].busy, &expected, 1))
            continue;
        if (!stacks[i].base)
            stacks[i].base = map_stack();
        if (stacks[i].base)
            return i;
        atomic_store(&stacks[i].busy, 0);
        return -1;
    }
    return -1;
}

/* Whether the handler runs on a small alternate stack: the kernel saved the
 * thread's alternate stack in the context. On the thread's own stack, or
 * with room to spare, the work stays where it is (no system call). */
static int on_small_altstack(const ucontext_t *uc)
{
    const stack_t *ss = &uc->uc_stack;
    uintptr_t here = (uintptr_t)&ss, lo = (uintptr_t)ss->ss_sp;
    if (ss->ss_flags & SS_DISABLE || here < lo || here >= lo + ss->ss_size)
        return 0;
    return here - lo < ROOM;
}

void sg_run_on_own_stack(void (*fn)(void *), void *arg, const ucontext_t *uc)
{
    if (!on_small_altstack(uc)) {
        fn(arg);
        return;
    }
    int i = claim();
    if (i < 0) {
        fn(arg); /* more handlers at once than stacks: where we are */
        return;
    }
    stack_t mine = { .ss_sp = stacks[i].base, .ss_size = STACK_BYTES, .ss_flags = 0 }, prog;
    int swapped = sigaltstack(&mine, &prog) == 0;
    sg_call_on_stack(arg, fn, (char *)stacks[i].base + STACK_BYTES);
    if (swapped) {
        if (prog.ss_flags & SS_DISABLE)
            prog.ss_flags = SS_DISABLE;
        else
            prog.ss_flags &= SS_AUTODISARM;
        sigaltstack(&prog, NULL);
    }
    atomic_store(&stacks[i].busy, 0);
}

void sg_own_stacks_after_fork_child(void)
{
    /* The child's one thread is not inside a handler. */
    for (int i = 0; i < STACKS; i++)
        atomic_store(&stacks[i].busy, 0);
}
