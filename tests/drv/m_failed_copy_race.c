/* SPDX-License-Identifier: Apache-2.0 */
/* m_failed_copy_race: a call that fails enqueues nothing and orders
 * nothing.  Blocking stream A holds a device-to-host copy; a synchronous
 * cuMemcpyDtoH on the legacy stream fails (its source is no device
 * memory); an event recorded on another blocking stream B is synchronized,
 * and the copy's buffer read.  Nothing ordered B after A's copy: a race.
 * (#11: the failed copy had taken a place on the legacy stream, which then
 * seemed to order B after A.)  Twin: m_failed_copy_ok, where the legacy
 * copy succeeds: it waits for A's copy (legacy rule), and B's event follows
 * it.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_failed_copy_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_failed_copy_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr scratch = sgt_device_words(16, 0);
    uint32_t small[16];
    CUstream a = sgt_stream(CU_STREAM_DEFAULT);
    CUstream b = sgt_stream(CU_STREAM_DEFAULT);
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_failed_copy_ok */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoH(small, scratch, sizeof small)); /* waits for A's copy */
    SGT_CHECK(cuEventRecord(e, b));
    SGT_CHECK(cuEventSynchronize(e));
#else
    (void)scratch;
    SGT_EXPECT(cuMemcpyDtoH(small, 0, sizeof small) != CUDA_SUCCESS); /* no device memory */
    SGT_CHECK(cuEventRecord(e, b)); /* B has no work: complete at once */
    SGT_CHECK(cuEventSynchronize(e));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing an event of B");
}
