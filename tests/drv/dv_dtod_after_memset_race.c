/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_race: device memory between two streams. A memset
 * of device buffer X runs on the non-blocking stream A (held by the test),
 * and a device-to-device copy X -> Y is enqueued on the non-blocking
 * stream B, which never waited for A: natively the copy may run first and
 * Y gets X's old words. syncguard reports device-read-after-write when
 * the copy is enqueued and, by default (device_fix=1), makes B wait for
 * A's work, so that Y gets the memset's words.
 *
 * Twins (the same program with other macros): dv_dtod_after_memset_event_ok
 * (B waits for an event recorded on A after the memset: silent),
 * dv_dtod_after_memset_host_sync_ok (the host synchronizes A first),
 * dv_dtod_after_memset_same_stream_ok (both on A),
 * dv_dtod_after_memset_legacy_ok (A blocking, the copy on the legacy
 * stream: ordered by the legacy-stream rules), dv_dtod_after_memset_sync_mode
 * (mode=sync: ordered, no report), dv_dtod_after_memset_report_only
 * (device_fix=0: reported, not ordered: Y keeps the old words, as without
 * syncguard).
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: device-read-after-write
 * SG-GREP: ^SUMMARY: syncguard: device-read-after-write .*dv_dtod_after_memset_race.c:[0-9]* in main
 * SG-GREP: syncguard made stream .* wait for the work of stream
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define N 1024u

#ifndef SG_A_FLAGS
#define SG_A_FLAGS CU_STREAM_NON_BLOCKING
#endif
#ifndef SG_COPY_STREAM /* where the copy goes: b, a, or the legacy stream (NULL) */
#define SG_COPY_STREAM b
#endif
#ifndef SG_WANT /* what Y must hold at the end */
#define SG_WANT SGT_NEW
#endif

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr x = sgt_device_words(N, SGT_OLD), y = sgt_device_words(N, 0);
    CUstream a = sgt_stream(SG_A_FLAGS), b = sgt_stream(CU_STREAM_NON_BLOCKING);
    (void)b;

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemsetD32Async(x, SGT_NEW, N, a));
#ifdef SG_EVENT_WAIT
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuStreamWaitEvent(b, e, 0));
#endif
#ifdef SG_HOST_SYNC
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(a));
#endif
    SGT_CHECK(cuMemcpyDtoDAsync(y, x, N * sizeof(uint32_t), SG_COPY_STREAM)); /* reads X */
#if defined(SG_REPORT_ONLY) /* the copy, not ordered, completes while A is held */
    SGT_CHECK(cuStreamSynchronize(SG_COPY_STREAM));
    sgt_release(hold);
#elif !defined(SG_HOST_SYNC)
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(cuStreamSynchronize(SG_COPY_STREAM));
    SGT_CHECK(cuStreamSynchronize(a));
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, y, sizeof out));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SG_WANT), "Y after both streams");
}
