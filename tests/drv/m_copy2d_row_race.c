/* m_copy2d_row_race: 2D copies.  cuMemcpy2DAsync D2H into a pitched pinned
 * buffer (pitch twice the width): reading a byte INSIDE a row before
 * synchronizing is a race.  Twin: m_copy2d_gap_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_copy2d_row_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_copy2d_gap_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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

#define W 2048u                         /* bytes per row */
#define PITCH 4096u                     /* twice the width: a gap after each row */
#define H 4u                            /* rows: H * PITCH == BYTES */

/* Row words must hold NEW, gap words must still hold OLD. */
static unsigned layout_wrong(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < PITCH / 4; x++)
            wrong += h[y * PITCH / 4 + x] != (x < W / 4 ? NEW : OLD);
    return wrong;
}

static CUDA_MEMCPY2D rows_to_host(uint32_t *host, CUdeviceptr dev)
{
    CUDA_MEMCPY2D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = dev;
    p.srcPitch = W;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = host;
    p.dstPitch = PITCH;
    p.WidthInBytes = W;
    p.Height = H;
    return p;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CUDA_MEMCPY2D p = rows_to_host(host, dev);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpy2DAsync(&p, a));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_copy2d_gap_ok */
    uint32_t gap = ((volatile uint32_t *)host)[PITCH / 4 + W / 4 + 100];  /* row 1's gap */
#else
    uint32_t early = ((volatile uint32_t *)host)[PITCH / 4 + 100];     /* row 1: the race */
#endif
    SGT_CHECK(cuStreamSynchronize(a));
#ifdef SG_TWIN /* m_copy2d_gap_ok */
    unsigned wrong = layout_wrong(host) + (gap != OLD);
    return verdict(wrong, "early read in a gap, then the whole layout");
#else
    unsigned wrong = layout_wrong(host) + (early != NEW);
    return verdict(wrong, "early read inside a row, then the whole layout");
#endif
}
