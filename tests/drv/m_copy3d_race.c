/* m_copy3d_race: 3D copies.  cuMemcpy3DAsync D2H of 2 slices of 2 rows into
 * a pinned box with a gap after each row and two gap rows per slice:
 * reading a byte of the second slice's second row early is a race.  Twin:
 * m_copy3d_gap_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_copy3d_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_copy3d_gap_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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

#define W 1024u                         /* bytes per row */
#define PITCH 2048u                     /* a W-byte gap after each row */
#define ROWS 2u                         /* rows copied per slice */
#define SLICE_ROWS 4u                   /* rows per slice: two gap rows */
#define DEPTH 2u                        /* DEPTH * SLICE_ROWS * PITCH == BYTES */

static unsigned layout_wrong(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned z = 0; z < DEPTH; z++)
        for (unsigned y = 0; y < SLICE_ROWS; y++)
            for (unsigned x = 0; x < PITCH / 4; x++)
                wrong += h[(z * SLICE_ROWS + y) * PITCH / 4 + x] != (y < ROWS && x < W / 4 ? NEW : OLD);
    return wrong;
}

static CUDA_MEMCPY3D box_to_host(uint32_t *host, CUdeviceptr dev)
{
    CUDA_MEMCPY3D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = dev;
    p.srcPitch = W;
    p.srcHeight = ROWS;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = host;
    p.dstPitch = PITCH;
    p.dstHeight = SLICE_ROWS;
    p.WidthInBytes = W;
    p.Height = ROWS;
    p.Depth = DEPTH;
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
    CUDA_MEMCPY3D p = box_to_host(host, dev);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpy3DAsync(&p, a));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_copy3d_gap_ok */
    const volatile uint32_t *h = host;
    uint32_t tail = h[W / 4 + 10];                          /* slice 0, row 0, gap */
    uint32_t gap_row = h[(ROWS + 1) * PITCH / 4 + 3];       /* slice 0, row 3 */
#else
    uint32_t early = ((volatile uint32_t *)host)[(SLICE_ROWS + 1) * PITCH / 4 + 7];
#endif
    SGT_CHECK(cuStreamSynchronize(a));
#ifdef SG_TWIN /* m_copy3d_gap_ok */
    unsigned wrong = layout_wrong(host) + (tail != OLD) + (gap_row != OLD);
    return verdict(wrong, "early reads in gaps, then the whole box");
#else
    unsigned wrong = layout_wrong(host) + (early != NEW);
    return verdict(wrong, "early read inside slice 1 row 1, then the whole box");
#endif
}
