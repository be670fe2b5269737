/* SPDX-License-Identifier: Apache-2.0 */
/* m_sync_memset_pinned_race: a synchronous memset of pinned host memory is
 * "fully synchronous" (API synchronization behavior): it returns once done,
 * and so is the legacy stream's earlier work, which includes the blocking
 * streams' work before it.  Here the copy runs on a NON-BLOCKING stream:
 * the memset does not wait for it, and its return says nothing about the
 * copy.  The memset's own target is the host's at once (read, never
 * reported).  Twins: m_sync_memset_pinned_ok (cuMemsetD32) and
 * m_sync_memset2d_pinned_ok (cuMemsetD2D32), where the copy is on a
 * blocking stream and is observed by the memset's return.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_memset_pinned_race
 * SG-NOGREP: Memset enqueued
 */
/* This program is also built, with SG_TWIN defined, as its twins (the
 * lines under #ifdef SG_TWIN are theirs); each defines SG_PINNED_OP, its
 * memset of the 64 pinned words `mark` to MARK. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define MARK 0x600dcafeu

#ifndef SG_TWIN
#define SG_PINNED_OP cuMemsetD32((CUdeviceptr)(uintptr_t)mark, MARK, 64)
#endif

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    uint32_t *mark = sgt_pinned(64 * sizeof *mark);
#ifdef SG_TWIN /* the twins */
    CUstream a = sgt_stream(CU_STREAM_DEFAULT);
#else
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* the memset waits for the copy: let it run then */
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(SG_PINNED_OP);             /* on the legacy stream; returns once done */
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    unsigned wrong = SGT_COUNT_WRONG(mark, 64, MARK); /* the memset's words: done */
    wrong += SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the copy: the race, unless a twin */
    return sgt_verdict(wrong, "after the synchronous memset of pinned memory");
}
