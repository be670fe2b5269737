/* SPDX-License-Identifier: Apache-2.0 */
/* m_pageable_d2h_async_race: an async copy from the device into PAGEABLE
 * memory returns only once it has completed (API synchronization
 * behavior), so it shows the host that its stream's earlier work is done
 * too; but only its own stream's. Here the pinned copy runs on stream A and
 * the pageable copy on another non-blocking stream B: the early read of the
 * pinned buffer is a race. Twin: m_pageable_d2h_async_ok (same stream).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_pageable_d2h_async_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host, pageable[16];
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN
    (void)b;                            /* created, not used */
    /* Blocks until the held copy before it on A is done: release it then. */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(pageable, dev, sizeof pageable, a));
#else
    SGT_CHECK(cuMemcpyDtoHAsync(pageable, dev, sizeof pageable, b));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW),
                       "after an async copy into pageable memory");
}
