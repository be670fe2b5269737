/* SPDX-License-Identifier: Apache-2.0 */
/* sgt_kernels.h - kernels for the driver-API tests, the same on a GPU and
 * on the emulator.  On a GPU the module is the PTX below, compiled by the
 * driver (cuModuleLoadData JIT-compiles PTX: no nvcc needed); on the
 * emulator each kernel is a CPU function registered with
 * sgemu_kernel_register (tests/emu/sgemu.h) under the same name and with
 * the parameter layout the PTX declares, which is what cuFuncGetParamInfo
 * answers there.
 *
 *   sgt_fill(unsigned *p, unsigned n, unsigned v)      p[0..n) = v
 *   sgt_fill_struct(struct sgt_fill_args a)            the same, the
 *       pointer inside a struct passed by value (16 bytes)
 *   sgt_signal(unsigned *p, unsigned post, unsigned want, unsigned ms)
 *       host-kernel signalling through mapped memory, as NCCL's proxies,
 *       XLA's timers and NVIDIA's cudaGraphsPerfScaling do it: stores
 *       post into p[0] (unless 0), then polls p[1] until it holds want
 *       (unless 0) for at most ms milliseconds, then stores 1 into p[2]
 *       (SGT_SIGNAL_SEEN), or 2 (SGT_SIGNAL_TIMED_OUT) when the time ran
 *       out
 *   sgt_fill2(unsigned *p, unsigned *q, unsigned n, unsigned v)
 *       p[0..n) = q[0..n) = v: a launch given two allocations
 *   sgt_gated_fill(struct sgt_gate g, unsigned *p, unsigned n, unsigned v)
 *       waits until *g.flag >= g.value (a hold's flag, sgt_hold_gate),
 *       then fills like sgt_fill: a kernel that has begun and cannot end
 *       before the test releases it.  The flag's pointer is inside a
 *       struct, where syncguard does not look, so the flag's pinned
 *       allocation is not taken for memory the kernel writes.
 *   sgt_copy(unsigned *dst, const unsigned *src, unsigned n)
 *       dst[0..n) = src[0..n): a kernel that only reads one allocation
 *
 * One thread does all the work: launch them on a 1x1x1 grid. */
#ifndef SGT_KERNELS_H
#define SGT_KERNELS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */
#endif
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgtest.h"

struct sgt_fill_args {
    CUdeviceptr p;
    unsigned int n, v;
};

#define SGT_SIGNAL_SEEN 1u
#define SGT_SIGNAL_TIMED_OUT 2u
struct sgt_gate {
    CUdeviceptr flag;
    unsigned int value, pad;
};

static const char sgt_kernels_ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry sgt_fill(.param .u64 sgt_fill_p, .param .u32 sgt_fill_n,\n"
    "                         .param .u32 sgt_fill_v)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [sgt_fill_p];\n"
    "    ld.param.u32 %r1, [sgt_fill_n];\n"
    "    ld.param.u32 %r2, [sgt_fill_v];\n"
    "    mov.u32 %r3, 0;\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra FILL_DONE;\n"
    "FILL_LOOP:\n"
    "    st.volatile.u32 [%rd1], %r2;\n"
    "    add.s64 %rd1, %rd1, 4;\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra FILL_LOOP;\n"
    "FILL_DONE:\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry sgt_fill_struct(.param .align 8 .b8 sgt_fill_struct_a[16])\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<2>;\n"
    "    ld.param.u64 %rd1, [sgt_fill_struct_a];\n"
    "    ld.param.u32 %r1, [sgt_fill_struct_a+8];\n"
    "    ld.param.u32 %r2, [sgt_fill_struct_a+12];\n"
    "    mov.u32 %r3, 0;\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra STRUCT_DONE;\n"
    "STRUCT_LOOP:\n"
    "    st.volatile.u32 [%rd1], %r2;\n"
    "    add.s64 %rd1, %rd1, 4;\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra STRUCT_LOOP;\n"
    "STRUCT_DONE:\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry sgt_signal(.param .u64 sgt_signal_p, .param .u32 sgt_signal_post,\n"
    "                           .param .u32 sgt_signal_want, .param .u32 sgt_signal_ms)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.u64 %rd1, [sgt_signal_p];\n"
    "    ld.param.u32 %r1, [sgt_signal_post];\n"
    "    ld.param.u32 %r2, [sgt_signal_want];\n"
    "    ld.param.u32 %r3, [sgt_signal_ms];\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra SIGNAL_WAIT;\n"
    "    st.volatile.u32 [%rd1], %r1;\n"
    "    membar.sys;\n"
    "SIGNAL_WAIT:\n"
    "    mov.u32 %r5, 1;\n"
    "    setp.eq.u32 %p1, %r2, 0;\n"
    "    @%p1 bra SIGNAL_DONE;\n"
    "    mov.u64 %rd2, %globaltimer;\n"
    "    cvt.u64.u32 %rd3, %r3;\n"
    "    mul.lo.u64 %rd3, %rd3, 1000000;\n"
    "    add.u64 %rd4, %rd2, %rd3;\n"
    "SIGNAL_LOOP:\n"
    "    ld.volatile.u32 %r4, [%rd1+4];\n"
    "    setp.eq.u32 %p1, %r4, %r2;\n"
    "    @%p1 bra SIGNAL_DONE;\n"
    "    mov.u64 %rd5, %globaltimer;\n"
    "    setp.lt.u64 %p2, %rd5, %rd4;\n"
    "    @%p2 bra SIGNAL_LOOP;\n"
    "    mov.u32 %r5, 2;\n"
    "SIGNAL_DONE:\n"
    "    st.volatile.u32 [%rd1+8], %r5;\n"
    "    membar.sys;\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry sgt_fill2(.param .u64 sgt_fill2_p, .param .u64 sgt_fill2_q,\n"
    "                          .param .u32 sgt_fill2_n, .param .u32 sgt_fill2_v)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [sgt_fill2_p];\n"
    "    ld.param.u64 %rd2, [sgt_fill2_q];\n"
    "    ld.param.u32 %r1, [sgt_fill2_n];\n"
    "    ld.param.u32 %r2, [sgt_fill2_v];\n"
    "    mov.u32 %r3, 0;\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra FILL2_DONE;\n"
    "FILL2_LOOP:\n"
    "    st.volatile.u32 [%rd1], %r2;\n"
    "    st.volatile.u32 [%rd2], %r2;\n"
    "    add.s64 %rd1, %rd1, 4;\n"
    "    add.s64 %rd2, %rd2, 4;\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra FILL2_LOOP;\n"
    "FILL2_DONE:\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry sgt_gated_fill(.param .align 8 .b8 sgt_gated_fill_g[16],\n"
    "                               .param .u64 sgt_gated_fill_p, .param .u32 sgt_gated_fill_n,\n"
    "                               .param .u32 sgt_gated_fill_v)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<6>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd2, [sgt_gated_fill_g];\n"
    "    ld.param.u32 %r4, [sgt_gated_fill_g+8];\n"
    "GATE_WAIT:\n"
    "    ld.volatile.u32 %r5, [%rd2];\n"
    "    setp.lt.u32 %p1, %r5, %r4;\n"
    "    @%p1 bra GATE_WAIT;\n"
    "    ld.param.u64 %rd1, [sgt_gated_fill_p];\n"
    "    ld.param.u32 %r1, [sgt_gated_fill_n];\n"
    "    ld.param.u32 %r2, [sgt_gated_fill_v];\n"
    "    mov.u32 %r3, 0;\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra GATED_DONE;\n"
    "GATED_LOOP:\n"
    "    st.volatile.u32 [%rd1], %r2;\n"
    "    add.s64 %rd1, %rd1, 4;\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra GATED_LOOP;\n"
    "GATED_DONE:\n"
    "    ret;\n"
    "}\n"
    "\n"
    ".visible .entry sgt_copy(.param .u64 sgt_copy_dst, .param .u64 sgt_copy_src,\n"
    "                         .param .u32 sgt_copy_n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<4>;\n"
    "    .reg .b64 %rd<3>;\n"
    "    ld.param.u64 %rd1, [sgt_copy_dst];\n"
    "    ld.param.u64 %rd2, [sgt_copy_src];\n"
    "    ld.param.u32 %r1, [sgt_copy_n];\n"
    "    mov.u32 %r3, 0;\n"
    "    setp.eq.u32 %p1, %r1, 0;\n"
    "    @%p1 bra COPY_DONE;\n"
    "COPY_LOOP:\n"
    "    ld.volatile.u32 %r2, [%rd2];\n"
    "    st.volatile.u32 [%rd1], %r2;\n"
    "    add.s64 %rd1, %rd1, 4;\n"
    "    add.s64 %rd2, %rd2, 4;\n"
    "    add.u32 %r3, %r3, 1;\n"
    "    setp.lt.u32 %p1, %r3, %r1;\n"
    "    @%p1 bra COPY_LOOP;\n"
    "COPY_DONE:\n"
    "    ret;\n"
    "}\n";

/* The emulator's CPU twins of the PTX kernels. */
static inline void sgt_cpu_fill_words(CUdeviceptr p, unsigned int n, unsigned int v)
{
    void (*dev_write)(CUdeviceptr, const void *, size_t) =
        (void (*)(CUdeviceptr, const void *, size_t))dlsym(RTLD_DEFAULT, "sgemu_dev_write");
    unsigned int *words = malloc((n ? n : 1) * sizeof *words);
    if (!words || !dev_write)
        abort();
    for (unsigned int i = 0; i < n; i++)
        words[i] = v;
    dev_write(p, words, n * sizeof *words);
    free(words);
}

static inline void sgt_cpu_fill(const void *args)
{
    struct sgt_fill_args a;
    memcpy(&a.p, args, 8);
    memcpy(&a.n, (const char *)args + 8, 4);
    memcpy(&a.v, (const char *)args + 12, 4);
    sgt_cpu_fill_words(a.p, a.n, a.v);
}

typedef void (*sgt_dev_fn)(void *, CUdeviceptr, size_t);

static inline uint64_t sgt_cpu_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* The emulator's sgt_signal: it reaches the words as a device does, past
 * any page protection; its poll sleeps a little between looks. */
static inline void sgt_cpu_signal(const void *args)
{
    sgt_dev_fn dev_read = (sgt_dev_fn)dlsym(RTLD_DEFAULT, "sgemu_dev_read");
    void (*dev_write)(CUdeviceptr, const void *, size_t) =
        (void (*)(CUdeviceptr, const void *, size_t))dlsym(RTLD_DEFAULT, "sgemu_dev_write");
    if (!dev_read || !dev_write)
        abort();
    CUdeviceptr p;
    unsigned int post, want, ms, seen, result = SGT_SIGNAL_SEEN;
    memcpy(&p, args, 8);
    memcpy(&post, (const char *)args + 8, 4);
    memcpy(&want, (const char *)args + 12, 4);
    memcpy(&ms, (const char *)args + 16, 4);
    if (post)
        dev_write(p, &post, sizeof post);
    /* A GPU's poll looks thousands of times; this one at least
     * SGT_CPU_MIN_POLLS, so that what an instrumented launch records of it
     * (a poll: learn/patch/record.h) does not depend on the host's speed. */
    enum { SGT_CPU_MIN_POLLS = 16 };
    unsigned int looks = 0;
    for (uint64_t deadline = sgt_cpu_now_ms() + ms; want; looks++) {
        dev_read(&seen, p + 4, sizeof seen);
        if (seen == want) {
            if (looks + 1 >= SGT_CPU_MIN_POLLS)
                break;
        } else if (sgt_cpu_now_ms() >= deadline) {
            result = SGT_SIGNAL_TIMED_OUT;
            break;
        }
        struct timespec pause = { 0, 100000 };
        nanosleep(&pause, NULL);
    }
    dev_write(p + 8, &result, sizeof result);
}

static inline void sgt_cpu_fill2(const void *args)
{
    CUdeviceptr p, q;
    unsigned int n, v;
    memcpy(&p, args, 8);
    memcpy(&q, (const char *)args + 8, 8);
    memcpy(&n, (const char *)args + 16, 4);
    memcpy(&v, (const char *)args + 20, 4);
    sgt_cpu_fill_words(p, n, v);
    sgt_cpu_fill_words(q, n, v);
}

/* The gate: poll the flag as the device would (sgemu_dev_read), then fill. */
static inline void sgt_cpu_gated_fill(const void *args)
{
    void (*dev_read)(void *, CUdeviceptr, size_t) =
        (void (*)(void *, CUdeviceptr, size_t))dlsym(RTLD_DEFAULT, "sgemu_dev_read");
    struct sgt_gate g;
    struct sgt_fill_args a;
    memcpy(&g, args, sizeof g);
    memcpy(&a.p, (const char *)args + 16, 8);
    memcpy(&a.n, (const char *)args + 24, 4);
    memcpy(&a.v, (const char *)args + 28, 4);
    if (!dev_read)
        abort();
    for (unsigned int seen = 0;;) {
        dev_read(&seen, g.flag, sizeof seen);
        if (seen >= g.value)
            break;
        struct timespec nap = { 0, 100 * 1000 };
        nanosleep(&nap, NULL);
    }
    sgt_cpu_fill_words(a.p, a.n, a.v);
}

static inline void sgt_cpu_copy(const void *args)
{
    sgt_dev_fn dev_read = (sgt_dev_fn)dlsym(RTLD_DEFAULT, "sgemu_dev_read");
    void (*dev_write)(CUdeviceptr, const void *, size_t) =
        (void (*)(CUdeviceptr, const void *, size_t))dlsym(RTLD_DEFAULT, "sgemu_dev_write");
    CUdeviceptr dst, src;
    unsigned int n;
    memcpy(&dst, args, 8);
    memcpy(&src, (const char *)args + 8, 8);
    memcpy(&n, (const char *)args + 16, 4);
    unsigned int *words = malloc((n ? n : 1) * sizeof *words);
    if (!words || !dev_read || !dev_write)
        abort();
    dev_read(words, src, n * sizeof *words);
    dev_write(dst, words, n * sizeof *words);
    free(words);
}

typedef void (*sgt_register_fn)(const char *, void (*)(const void *), unsigned, const size_t *,
                                const size_t *);

static inline void sgt_register_cpu_kernels(void)
{
    sgt_register_fn reg = (sgt_register_fn)dlsym(RTLD_DEFAULT, "sgemu_kernel_register");
    static const size_t fill_off[] = { 0, 8, 12 }, fill_size[] = { 8, 4, 4 };
    static const size_t struct_off[] = { 0 }, struct_size[] = { 16 };
    static const size_t signal_off[] = { 0, 8, 12, 16 }, signal_size[] = { 8, 4, 4, 4 };
    static const size_t fill2_off[] = { 0, 8, 16, 20 }, fill2_size[] = { 8, 8, 4, 4 };
    static const size_t gated_off[] = { 0, 16, 24, 28 }, gated_size[] = { 16, 8, 4, 4 };
    static const size_t copy_off[] = { 0, 8, 16 }, copy_size[] = { 8, 8, 4 };
    if (!reg)
        return;
    /* Same bytes either way: the struct's layout is the three scalars'. */
    reg("sgt_fill", sgt_cpu_fill, 3, fill_off, fill_size);
    reg("sgt_fill_struct", sgt_cpu_fill, 1, struct_off, struct_size);
    reg("sgt_signal", sgt_cpu_signal, 4, signal_off, signal_size);
    reg("sgt_fill2", sgt_cpu_fill2, 4, fill2_off, fill2_size);
    reg("sgt_gated_fill", sgt_cpu_gated_fill, 4, gated_off, gated_size);
    reg("sgt_copy", sgt_cpu_copy, 3, copy_off, copy_size);
}

/* The kernel `name` of the module above, loaded in the current context. */
static inline CUfunction sgt_kernel(const char *name)
{
    static CUmodule module;
    if (!module) {
        if (sgt_on_emulator())
            sgt_register_cpu_kernels();
        SGT_CHECK(cuModuleLoadData(&module, sgt_kernels_ptx));
    }
    CUfunction f;
    SGT_CHECK(cuModuleGetFunction(&f, module, name));
    return f;
}

/* sgt_fill(p, n, v) on stream s, on a 1x1x1 grid. */
static inline void sgt_launch_fill(CUfunction f, CUstream s, CUdeviceptr p, unsigned int n,
                                   unsigned int v)
{
    void *params[] = { &p, &n, &v };
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
}

/* sgt_copy(dst, src, n) on stream s, on a 1x1x1 grid. */
static inline void sgt_launch_copy(CUstream s, CUdeviceptr dst, CUdeviceptr src, unsigned int n)
{
    CUfunction f = sgt_kernel("sgt_copy");
    void *params[] = { &dst, &src, &n };
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
}

/* sgt_signal(p, post, want, ms) on stream s, on a 1x1x1 grid. */
static inline void sgt_launch_signal(CUstream s, CUdeviceptr p, unsigned int post,
                                     unsigned int want, unsigned int ms)
{
    CUfunction f = sgt_kernel("sgt_signal");
    void *params[] = { &p, &post, &want, &ms };
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
}

#endif
