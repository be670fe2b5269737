/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_sample_rows_race: the sampled mode decides per copy, not per guarded
 * range. One cuMemcpy2DAsync a step, device to ROWS pinned rows more than
 * a page apart (so each row is guarded as a range of its own), and on each
 * of 3 steps an early read of its last row. With sample=2, sample_first=1
 * the site's copies 0 and 2 are guarded whole, every row: the reads of
 * steps 0 and 2 wait for their copy, the first is reported; copy 1 is
 * sampled out whole. A decision per row guarded rows 0 and 2 of copy 0
 * only (its last row's read missed) and counted 12 copies of the site.
 * Twin: d2h_sample_rows_ok.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^racy reads that waited for their copy: 0 2$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=1,
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 1 sampled out: d2h_sample_rows_race.c:[0-9]* in main$
 */
#include <unistd.h>

#include "sample_step.h"
#include "sgt_shapes.h"

#ifndef SG_TWIN
#define SG_TWIN 0
#endif
#define ROWS 4
#define STEPS 3

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

int main(void)
{
    CUdeviceptr page;
    CUstream s = step_start(&page);
    CUdeviceptr dev = sgt_device_words(ROWS * STEP_WORDS, SGT_NEW); /* packed rows */
    /* A gap of a page after each row of STEP_BYTES: nothing to guard there. */
    size_t pitch = STEP_BYTES + (size_t)sysconf(_SC_PAGESIZE), words = ROWS * pitch / 4;
    uint32_t *host = sgt_pinned(ROWS * pitch), *last = host + (ROWS - 1) * pitch / 4;
    CUDA_MEMCPY2D p = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev, .srcPitch = STEP_BYTES,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstPitch = pitch,
        .WidthInBytes = STEP_BYTES, .Height = ROWS,
    };
    struct sample_log log = { "", 0 };
    for (int step = 0, n = steps; step < n; step++) {
        for (size_t i = 0; i < words; i++)
            host[i] = SGT_OLD;
        sgt_hold *h = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpy2DAsync(&p, s)); /* the site */
        step_end(&log, h, s, last, step, !SG_TWIN); /* the racy read: the last row */
        log.late_wrong += sgt_rows_wrong(host, STEP_BYTES, (unsigned)pitch, ROWS);
    }
    printf("racy reads that waited for their copy:%s\n", log.waited);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuMemFree(page));
    SGT_CHECK(cuStreamDestroy(s));
    return step_verdict(&log);
}
