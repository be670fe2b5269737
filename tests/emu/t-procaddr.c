/* SPDX-License-Identifier: Apache-2.0 */
/* cuGetProcAddress: the lookups both runtimes make. */
#define _GNU_SOURCE 1
#include "t-util.h"

#include <dlfcn.h>

typedef CUresult (*get_proc_v2_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

static void *symbol(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    SGT_EXPECT(p != NULL);
    return p;
}

static void *lookup(get_proc_v2_fn get, const char *name, int version, cuuint64_t flags)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    SGT_CHECK(get(name, &fn, version, flags, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn != NULL);
    return fn;
}

static void expect_not_found(get_proc_v2_fn get, const char *name, int version,
                             CUdriverProcAddressQueryResult want)
{
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
    SGT_EXPECT(get(name, &fn, version, 0, &st) == CUDA_ERROR_NOT_FOUND);
    SGT_EXPECT(fn == NULL && st == want);
}

int main(void)
{
    /* What a runtime does first: no cuInit needed. */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    SGT_EXPECT(lib != NULL);
    get_proc_v2_fn get = (get_proc_v2_fn)symbol(lib, "cuGetProcAddress_v2");

    SGT_EXPECT(lookup(get, "cuGetProcAddress", 11030, 0) == symbol(lib, "cuGetProcAddress"));
    SGT_EXPECT(lookup(get, "cuGetProcAddress", 12000, 0) == symbol(lib, "cuGetProcAddress_v2"));
    SGT_EXPECT(lookup(get, "cuMemcpyDtoHAsync", 3020, 0) == symbol(lib, "cuMemcpyDtoHAsync_v2"));
    SGT_EXPECT(lookup(get, "cuMemcpyDtoHAsync", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ==
               symbol(lib, "cuMemcpyDtoHAsync_v2_ptsz"));
    SGT_EXPECT(lookup(get, "cuMemcpyDtoHAsync", 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM) ==
               symbol(lib, "cuMemcpyDtoHAsync_v2"));
    SGT_EXPECT(lookup(get, "cuMemcpyDtoH", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ==
               symbol(lib, "cuMemcpyDtoH_v2_ptds"));
    /* No per-thread variant: the legacy one. */
    SGT_EXPECT(lookup(get, "cuStreamCreate", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ==
               symbol(lib, "cuStreamCreate"));
    SGT_EXPECT(lookup(get, "cuStreamDestroy", 4000, 0) == symbol(lib, "cuStreamDestroy_v2"));
    SGT_EXPECT(lookup(get, "cuCtxCreate", 12050, 0) == symbol(lib, "cuCtxCreate_v4"));
    SGT_EXPECT(lookup(get, "cuCtxCreate", 12000, 0) == symbol(lib, "cuCtxCreate_v3"));
    SGT_EXPECT(lookup(get, "cuMemHostRegister", 6050, 0) == symbol(lib, "cuMemHostRegister_v2"));
    SGT_EXPECT(lookup(get, "cuEventElapsedTime", 12080, 0) == symbol(lib, "cuEventElapsedTime_v2"));
    SGT_EXPECT(lookup(get, "cuStreamWaitValue32", 12000, 0) == symbol(lib, "cuStreamWaitValue32_v2"));

    expect_not_found(get, "cuNoSuchFunction", 12000, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    expect_not_found(get, "cuMemcpyDtoHAsync_v2", 12000, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    expect_not_found(get, "cuGetProcAddress", 11020, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    void *fn;
    SGT_EXPECT(get("cuInit", &fn, 99000, 0, NULL) == CUDA_ERROR_INVALID_VALUE);

    /* The 4-argument ABI answers the same way. */
    CUresult (*get_v1)(const char *, void **, int, cuuint64_t) =
        (CUresult (*)(const char *, void **, int, cuuint64_t))lookup(get, "cuGetProcAddress", 11030, 0);
    SGT_CHECK(get_v1("cuStreamSynchronize", &fn, 11030, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM));
    SGT_EXPECT(fn == symbol(lib, "cuStreamSynchronize_ptsz"));

    const void *table = (const void *)1;
    CUuuid id = { { 0 } };
    SGT_EXPECT(cuGetExportTable(&table, &id) == CUDA_ERROR_NOT_SUPPORTED);
    return pass("t-procaddr", "cuGetProcAddress picks ABI variants by version and flags");
}
