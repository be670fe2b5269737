/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_read_ok: stream capture.  A copy enqueued on a capturing stream
 * is recorded into the graph, not executed: the host may use the buffer
 * during and after the capture (it still holds the old data).  syncguard
 * must not guard captured copies.  Twin: m_capture_launch_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    unsigned changed = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_OLD);   /* during the capture */
    SGT_CHECK(cuStreamEndCapture(s, &g));
    changed += SGT_COUNT_WRONG(host, SGT_WORDS, SGT_OLD);           /* after it */
    host[0] = 1;                                                    /* and the host may write */
    printf("captured copy: %u words changed\n", changed);
    if (changed) {
        printf("check: MISMATCH a captured copy ran\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
