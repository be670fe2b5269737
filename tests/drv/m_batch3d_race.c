/* m_batch3d_race: batch copies.  cuMemcpy3DBatchAsync (13.0 ABI, from
 * cuGetProcAddress) with pointer operands: rows of 2 KiB from packed device
 * memory into a pinned buffer with a pitch of 4 KiB.  Reading inside a row
 * before synchronizing is a race.  Twin: m_batch_v13000_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_batch3d_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* Device memory holding NEW and a pinned host buffer holding OLD, in the
 * current context, with no work pending. */
static void buffers(CUdeviceptr *dev, uint32_t **host)
{
    SGT_CHECK(cuMemAlloc(dev, BYTES));
    SGT_CHECK(cuMemsetD32(*dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemAllocHost((void **)host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        (*host)[i] = OLD;
}

static int verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

typedef CUresult (*batch3d_fn)(size_t, CUDA_MEMCPY3D_BATCH_OP *, unsigned long long, CUstream);

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress("cuMemcpy3DBatchAsync", &fn, 13000, 0, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    batch3d_fn batch3d = (batch3d_fn)fn;
    CUDA_MEMCPY3D_BATCH_OP op = { 0 };
    op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.src.op.ptr.ptr = dev;
    op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.dst.op.ptr.ptr = (CUdeviceptr)(uintptr_t)host;
    op.dst.op.ptr.rowLength = 4096;
    op.extent = (CUextent3D){ 2048, 4, 1 };
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(batch3d(1, &op, 0, a));
    sgt_release_when_host_waits(hold);
    uint32_t early = ((volatile uint32_t *)host)[1024 + 5];      /* row 1 */
    SGT_CHECK(cuStreamSynchronize(a));
    unsigned wrong = early != NEW;
    for (unsigned y = 0; y < 4; y++)    /* rows NEW, gaps OLD */
        for (unsigned x = 0; x < 1024; x++)
            wrong += host[y * 1024 + x] != (x < 512 ? NEW : OLD);
    return verdict(wrong, "early read inside a row, then the whole layout");
}
