/* SPDX-License-Identifier: Apache-2.0 */
/* huge_alloc_host_portable_race: cuMemAllocHost memory is pinned for every
 * context under unified addressing, and so must a block on syncguard's
 * huge pages (huge_pinned) be that stands for it: it is registered
 * PORTABLE (the emulator's record of the registration says so), while
 * cuMemHostGetFlags still answers what the driver answers for a
 * cuMemAllocHost allocation. An async copy into it from another context is
 * asynchronous (a real driver would otherwise make it wait for the held
 * stream: the watchdog would end the test), and an early read of it a
 * race, reported. Twin: huge_alloc_host_portable_ok.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * huge_alloc_host_portable_ok.c (the lines under #ifdef SG_TWIN are the
 * twin's). */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))

/* The flags the driver recorded for the registration (the emulator says,
 * sgemu_host_flags of emu/sgemu.h; a real driver does not: then not
 * checked). */
static void registered_portable(const void *p)
{
    int (*flags_of)(const void *, unsigned *) =
        (int (*)(const void *, unsigned *))dlsym(RTLD_DEFAULT, "sgemu_host_flags");
    unsigned f = 0;
    if (!flags_of)
        return;
    SGT_EXPECT(flags_of(p, &f) == 0);
    printf("the block's registration: flags %#x\n", f);
    SGT_EXPECT(f & CU_MEMHOSTREGISTER_PORTABLE);
}

/* cuMemHostGetFlags of the block is the driver's for its own allocation. */
static void flags_as_drivers(void *block)
{
    void *small;
    unsigned fb, fs;
    SGT_CHECK(cuMemAllocHost(&small, 4096));
    SGT_CHECK(cuMemHostGetFlags(&fb, block));
    SGT_CHECK(cuMemHostGetFlags(&fs, small));
    printf("cuMemHostGetFlags: %#x (the driver's allocation: %#x)\n", fb, fs);
    SGT_EXPECT(fb == fs);
    SGT_CHECK(cuMemFreeHost(small));
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    SGT_EXPECT(huge_mapping(host) == 1);
    registered_portable(host);
    flags_as_drivers(host);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = SGT_OLD;

    CUcontext other;
    SGT_CHECK(cuCtxCreate(&other, NULL, 0, 0));
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY); /* returned before it ran */
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* huge_alloc_host_portable_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    printf("read during the copy: %u, after it: %u of %u words wrong\n", early, late,
           (unsigned)WORDS);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuCtxDestroy(other));
    SGT_CHECK(cuMemFreeHost(host));
    if (early || late) {
        printf("check: MISMATCH a read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
