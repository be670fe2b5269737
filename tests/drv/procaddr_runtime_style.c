/* procaddr_runtime_style: a program that reaches the driver the way the CUDA
 * runtime does: dlopen("libcuda.so.1"), dlsym "cuGetProcAddress_v2", ask it
 * for "cuGetProcAddress" (version 12000), and from then on take every entry
 * point from that function (each at its ABI version, cuMemcpyDtoHAsync at
 * 3020) and call only those pointers.  syncguard must see the copy and the
 * synchronization through these pointers too: the early read of the pinned
 * destination is reported.  Twin: procaddr_runtime_style_sync.
 *
 * Only the test hold (sgtest) calls the driver directly, once the context
 * is current.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * procaddr_runtime_style_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

typedef CUresult (*getproc_fn)(const char *, void **, int, cuuint64_t,
                               CUdriverProcAddressQueryResult *);

static getproc_fn get_proc;

static struct {
    CUresult (*init)(unsigned int);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*primary_ctx_retain)(CUcontext *, CUdevice);
    CUresult (*ctx_set_current)(CUcontext);
    CUresult (*ctx_synchronize)(void);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memset_d32)(CUdeviceptr, unsigned int, size_t);
    CUresult (*mem_alloc_host)(void **, size_t);
    CUresult (*mem_free_host)(void *);
    CUresult (*stream_create)(CUstream *, unsigned int);
    CUresult (*stream_destroy)(CUstream);
    CUresult (*stream_synchronize)(CUstream);
    CUresult (*memcpy_dtoh_async)(void *, CUdeviceptr, size_t, CUstream);
} drv;

static void *lookup(const char *name, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status;
    CUresult r = get_proc(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {
        fprintf(stderr, "cuGetProcAddress(%s, %d): error %d, status %d\n", name, version, (int)r,
                (int)status);
        exit(2);
    }
    return fn;
}

static void load_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen libcuda.so.1: %s\n", dlerror());
        exit(2);
    }
    getproc_fn bootstrap = (getproc_fn)dlsym(lib, "cuGetProcAddress_v2");
    if (!bootstrap) {
        fprintf(stderr, "dlsym cuGetProcAddress_v2: %s\n", dlerror());
        exit(2);
    }
    get_proc = bootstrap;
    get_proc = (getproc_fn)lookup("cuGetProcAddress", 12000);
    *(void **)&drv.init = lookup("cuInit", 2000);
    *(void **)&drv.device_get = lookup("cuDeviceGet", 2000);
    *(void **)&drv.primary_ctx_retain = lookup("cuDevicePrimaryCtxRetain", 7000);
    *(void **)&drv.ctx_set_current = lookup("cuCtxSetCurrent", 4000);
    *(void **)&drv.ctx_synchronize = lookup("cuCtxSynchronize", 2000);
    *(void **)&drv.mem_alloc = lookup("cuMemAlloc", 3020);
    *(void **)&drv.mem_free = lookup("cuMemFree", 3020);
    *(void **)&drv.memset_d32 = lookup("cuMemsetD32", 3020);
    *(void **)&drv.mem_alloc_host = lookup("cuMemAllocHost", 3020);
    *(void **)&drv.mem_free_host = lookup("cuMemFreeHost", 2000);
    *(void **)&drv.stream_create = lookup("cuStreamCreate", 2000);
    *(void **)&drv.stream_destroy = lookup("cuStreamDestroy", 4000);
    *(void **)&drv.stream_synchronize = lookup("cuStreamSynchronize", 2000);
    *(void **)&drv.memcpy_dtoh_async = lookup("cuMemcpyDtoHAsync", 3020);
}

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    load_driver();
    SGT_CHECK(drv.init(0));
    CUdevice d;
    SGT_CHECK(drv.device_get(&d, 0));
    CUcontext ctx;
    SGT_CHECK(drv.primary_ctx_retain(&ctx, d));
    SGT_CHECK(drv.ctx_set_current(ctx));
    CUstream s;
    SGT_CHECK(drv.stream_create(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(drv.mem_alloc(&dev, BYTES));
    SGT_CHECK(drv.memset_d32(dev, NEW, WORDS));
    SGT_CHECK(drv.ctx_synchronize());   /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(drv.mem_alloc_host((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(drv.memcpy_dtoh_async(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* procaddr_runtime_style_sync */
    SGT_CHECK(drv.stream_synchronize(s)); /* waits for the copy: releases the hold */
#endif

#ifdef SG_TWIN /* procaddr_runtime_style_sync */
    unsigned wrong = count_wrong(host, NEW);
    printf("after cuStreamSynchronize: %u of %u words wrong\n", wrong, WORDS);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(drv.stream_synchronize(s));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize: %u\n", early, WORDS, late);
#endif
    SGT_CHECK(drv.mem_free_host(host));
    SGT_CHECK(drv.mem_free(dev));
    SGT_CHECK(drv.stream_destroy(s));
#ifdef SG_TWIN /* procaddr_runtime_style_sync */
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
#else
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
#endif
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
