/* SPDX-License-Identifier: Apache-2.0 */
/* k_reused_handle_race: syncguard caches each kernel's parameter layout by
 * its function handle. A context's teardown unloads its modules, and a
 * function handle may come back naming another kernel (the emulator gives
 * the freed handle to the next function looked up, as a driver's heap
 * can). Here the first kernel took three parameters, the pointer last; the
 * second, at the same handle, takes only the pointer, and the launch's
 * kernelParams array of one entry ends where an inaccessible page starts.
 * A layout kept across the teardown would read kernelParams[2] there (a
 * crash) instead of the pointer, and name the wrong kernel; asked again,
 * the second kernel's write into pinned memory is guarded, and the early
 * host read reported naming it. Twin: k_reused_handle_ok.
 *
 * SG-EMU-ONLY
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel k_pointer_only launched on stream .* by cuLaunchKernel
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * k_reused_handle_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_kernels.h"
#include "sgtest.h"

/* k_pointer_last(unsigned n, unsigned v, unsigned *p): p[0..n) = v */
static void cpu_pointer_last(const void *args)
{
    unsigned n, v;
    CUdeviceptr p;
    memcpy(&n, args, 4);
    memcpy(&v, (const char *)args + 4, 4);
    memcpy(&p, (const char *)args + 8, 8);
    sgt_cpu_fill_words(p, n, v);
}

/* k_pointer_only(unsigned *p): p[0..SGT_WORDS) = SGT_NEW */
static void cpu_pointer_only(const void *args)
{
    CUdeviceptr p;
    memcpy(&p, args, 8);
    sgt_cpu_fill_words(p, SGT_WORDS, SGT_NEW);
}

static void register_kernels(void)
{
    sgt_register_fn reg = (sgt_register_fn)dlsym(RTLD_DEFAULT, "sgemu_kernel_register");
    static const size_t last_off[] = { 0, 4, 8 }, last_size[] = { 4, 4, 8 };
    static const size_t only_off[] = { 0 }, only_size[] = { 8 };
    SGT_EXPECT(reg != NULL);
    reg("k_pointer_last", cpu_pointer_last, 3, last_off, last_size);
    reg("k_pointer_only", cpu_pointer_only, 1, only_off, only_size);
}

static CUfunction load(const char *name)
{
    CUmodule m;
    CUfunction f;
    SGT_CHECK(cuModuleLoadData(&m, sgt_kernels_ptx)); /* the emulator takes any image */
    SGT_CHECK(cuModuleGetFunction(&f, m, name));
    return f;
}

/* k_pointer_last launched on pinned memory of a context torn down after:
 * syncguard has looked at (and cached) its layout. Its handle. */
static CUfunction launched_then_torn_down(void)
{
    CUcontext c;
    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    CUfunction f = load("k_pointer_last");
    void *words = sgt_pinned(SGT_BYTES);
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)words;
    unsigned n = SGT_WORDS, v = SGT_OLD;
    void *params[] = { &n, &v, &p };
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    SGT_CHECK(cuCtxDestroy(c)); /* waits for it; unloads the module */
    return f;
}

/* Room for `entries` kernelParams entries ending where a PROT_NONE page
 * starts: one entry more is read from there. */
static void **params_before_hole(unsigned entries)
{
    long page = sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(m != MAP_FAILED);
    SGT_EXPECT(mprotect(m + page, (size_t)page, PROT_NONE) == 0);
    return (void **)(m + page) - entries;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    register_kernels();
    CUfunction old = launched_then_torn_down();
    CUfunction f = load("k_pointer_only");
    SGT_EXPECT(f == old); /* the premise: the emulator reuses the freed handle */

    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)host;
    void **params = params_before_hole(1);
    params[0] = &p;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* k_reused_handle_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
