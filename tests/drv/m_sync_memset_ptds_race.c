/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_ptds_race: a synchronous memset in its per-thread form
 * (cuMemsetD32_v2_ptds: built with CUDA_API_PER_THREAD_DEFAULT_STREAM) goes
 * to the calling thread's per-thread default stream, which synchronizes
 * with the legacy default stream only.  Here the copy runs on a
 * NON-BLOCKING stream: the memset does not wait for it, and synchronizing
 * the per-thread stream says nothing about the copy.  Twin:
 * m_sync_memset_ptds_ok, where the copy is on the legacy stream, which the
 * per-thread stream's memset waits for.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_memset_ptds_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_sync_memset_ptds_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr scratch = sgt_device_words(64, 0);
#ifdef SG_TWIN /* m_sync_memset_ptds_ok */
    CUstream a = CU_STREAM_LEGACY;
#else
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(cuMemsetD32(scratch, 1, 16)); /* the _ptds ABI: the per-thread stream */
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the per-thread stream");
}
