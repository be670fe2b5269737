/* SPDX-License-Identifier: Apache-2.0 */
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
#include "sgt_shapes.h"

#define W 1024u                         /* bytes per row */
#define PITCH 2048u                     /* a W-byte gap after each row */
#define ROWS 2u                         /* rows copied per slice */
#define SLICE_ROWS 4u                   /* rows per slice: two gap rows */
#define DEPTH 2u                        /* DEPTH * SLICE_ROWS * PITCH == SGT_BYTES */

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUDA_MEMCPY3D p = {                 /* a packed device box to a pitched host box */
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev, .srcPitch = W, .srcHeight = ROWS,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstPitch = PITCH, .dstHeight = SLICE_ROWS,
        .WidthInBytes = W, .Height = ROWS, .Depth = DEPTH,
    };
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
    unsigned wrong = sgt_box_wrong(host, W, PITCH, ROWS, SLICE_ROWS, DEPTH);
#ifdef SG_TWIN /* m_copy3d_gap_ok */
    wrong += (tail != SGT_OLD) + (gap_row != SGT_OLD);
    return sgt_verdict(wrong, "early reads in gaps, then the whole box");
#else
    wrong += early != SGT_NEW;
    return sgt_verdict(wrong, "early read inside slice 1 row 1, then the whole box");
#endif
}
