/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_event_sync: an event recorded on the copy's stream after a
 * cuMemcpyDtoHAsync, then cuEventSynchronize: its return observes the copy's
 * completion, so reading the pinned destination afterwards is no race and
 * sees the copied data.  Twin of d2h_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_legacy_covers_blocking.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    CUstream a = sgt_stream(CU_STREAM_DEFAULT); /* blocking */
#else
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    CUevent ev = sgt_event();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: after A's copy */
#else
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuEventRecord(ev, s));
#endif
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(ev));  /* waits for the copy: releases the hold */

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuEventDestroy(ev));
#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    SGT_CHECK(cuStreamDestroy(a));
    return sgt_verdict(wrong, "after cuEventSynchronize on the legacy stream's event");
#else
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_verdict(wrong, "after cuEventSynchronize");
#endif
}
