/* SPDX-License-Identifier: Apache-2.0 */
/* m_unregister_in_flight_race: unregistering pinned memory
 * (cuMemHostUnregister) while a copy into it is in flight: like
 * m_free_in_flight_race, reported as "free-in-flight".  Twin:
 * m_free_after_sync_ok.
 *
 * SG-EXPECT: free-in-flight
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_registered_buffers(&dev, &host);    /* program memory, registered */
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemHostUnregister(host));   /* the copy is still in flight */
    SGT_CHECK(cuStreamSynchronize(s));
    printf("unregistered while in flight; %u words not copied\n", SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW));
    return 0;
}
