/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_race: managed memory (cuMemAllocManaged) written by a kernel
 * on a non-blocking stream that the test holds; the host reads the words
 * without synchronizing. On a GPU with concurrent managed access nothing
 * stops it, and natively the host reads the old words. With
 * managed_races=1 the kernel's launch guards the allocation: the read is
 * reported as kernel-early-host-read and waits for the kernel, so the host
 * reads what the kernel wrote.
 *
 * Twins (this program with other macros; CuSan's managed-memory cases):
 * mg_kernel_wrong_stream_race (another stream synchronized),
 * mg_kernel_query_race (a query answered not ready), mg_kernel_legacy_race
 * (only the legacy stream synchronized, which a non-blocking stream does
 * not follow), mg_kernel_stream_sync_ok, mg_kernel_event_sync_ok,
 * mg_kernel_ctx_sync_ok (the host observed the kernel: silent),
 * mg_kernel_default_off (managed_races=0: silent, the old words, as
 * without syncguard).
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: host read of managed memory that a kernel
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "mg_managed.h"
#include "sgt_kernels.h"
#include "sgtest.h"

#define MG_NONE 0
#define MG_WRONG_STREAM 1
#define MG_QUERY 2
#define MG_LEGACY 3
#define MG_STREAM_SYNC 4
#define MG_EVENT_SYNC 5
#define MG_CTX_SYNC 6

#ifndef MG_BEFORE_READ /* what the host does between the launch and its read */
#define MG_BEFORE_READ MG_NONE
#endif
#ifndef MG_WANT /* what the host must read */
#define MG_WANT SGT_NEW
#endif

static void before_read(CUstream s, CUevent done)
{
    CUstream other = sgt_stream(CU_STREAM_NON_BLOCKING);
    switch (MG_BEFORE_READ) {
    case MG_WRONG_STREAM:
        SGT_CHECK(cuStreamSynchronize(other));
        break;
    case MG_QUERY:
        SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY); /* still held */
        break;
    case MG_LEGACY:
        SGT_CHECK(cuStreamSynchronize(CU_STREAM_LEGACY));
        break;
    case MG_STREAM_SYNC:
        SGT_CHECK(cuStreamSynchronize(s));
        break;
    case MG_EVENT_SYNC:
        SGT_CHECK(cuEventSynchronize(done));
        break;
    case MG_CTX_SYNC:
        SGT_CHECK(cuCtxSynchronize());
        break;
    }
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr m;
    uint32_t *words = mg_managed_words(&m, SGT_OLD);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent done = sgt_event();
    CUfunction f = sgt_kernel("sgt_fill");

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_launch_fill(f, s, m, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuEventRecord(done, s));
    sgt_release_when_host_waits(hold);
    before_read(s, done);
    unsigned wrong = SGT_COUNT_WRONG(words, SGT_WORDS, MG_WANT);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemFree(m));
    return sgt_verdict(wrong, "the managed words the host read");
}
