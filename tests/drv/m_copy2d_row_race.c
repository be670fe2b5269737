/* SPDX-License-Identifier: Apache-2.0 */
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
#include "sgt_shapes.h"

#define W 2048u                         /* bytes per row */
#define PITCH 4096u                     /* twice the width: a gap after each row */
#define H 4u                            /* rows: H * PITCH == SGT_BYTES */

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUDA_MEMCPY2D p = {                 /* packed device rows to pitched host rows */
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev, .srcPitch = W,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstPitch = PITCH,
        .WidthInBytes = W, .Height = H,
    };
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpy2DAsync(&p, a));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_copy2d_gap_ok */
    uint32_t gap = ((volatile uint32_t *)host)[PITCH / 4 + W / 4 + 100];  /* row 1's gap */
#else
    uint32_t early = ((volatile uint32_t *)host)[PITCH / 4 + 100];     /* row 1: the race */
#endif
    SGT_CHECK(cuStreamSynchronize(a));
    unsigned wrong = sgt_rows_wrong(host, W, PITCH, H);
#ifdef SG_TWIN /* m_copy2d_gap_ok */
    wrong += gap != SGT_OLD;
    return sgt_verdict(wrong, "early read in a gap, then the whole layout");
#else
    wrong += early != SGT_NEW;
    return sgt_verdict(wrong, "early read inside a row, then the whole layout");
#endif
}
