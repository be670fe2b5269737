/* SPDX-License-Identifier: Apache-2.0 */
/* The legacy default stream's implicit synchronisation: work on it waits
 * for blocking streams (not for non-blocking ones), work on blocking
 * streams (the per-thread default stream included) waits for it.  The held
 * stream overwrites the copied device memory after its hold, so what a
 * copy brings back says whether it ran after that work. */
#include "t-util.h"

#define N 1024

/* Work on the legacy stream waits for a held blocking stream. */
static void legacy_waits_for_blocking(void)
{
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_DEFAULT));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *h = pinned_zeroed(N);
    sgt_hold *hold = sgt_hold_stream(b);
    mark_on(b, d, N);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, N, NULL));
    SGT_EXPECT(cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(cuStreamQuery(CU_STREAM_LEGACY) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(h, N));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(NULL));
    SGT_EXPECT(all_marked(h, N));
}

/* ...but not for a held non-blocking one: this synchronisation returns
 * (a hang would be the failure, caught by the watchdog). */
static void legacy_ignores_non_blocking(void)
{
    CUstream nb;
    SGT_CHECK(cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *h = pinned_zeroed(N);
    sgt_hold *hold = sgt_hold_stream(nb);
    mark_on(nb, d, N);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, N, CU_STREAM_LEGACY));
    SGT_CHECK(cuStreamSynchronize(NULL));
    SGT_EXPECT(has_pattern(h, N, 1));
    SGT_EXPECT(cuStreamQuery(nb) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(nb));
}

/* Blocking streams (created or per-thread) wait for a held legacy stream;
 * non-blocking streams do not. */
static void blocking_waits_for_legacy(void)
{
    CUstream b, nb;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_DEFAULT));
    SGT_CHECK(cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *hb = pinned_zeroed(N), *hpt = pinned_zeroed(N), *hnb = pinned_zeroed(N);
    sgt_hold *hold = sgt_hold_stream(NULL);
    mark_on(NULL, d, N);
    SGT_CHECK(cuMemcpyDtoHAsync(hb, d, N, b));
    SGT_CHECK(cuMemcpyDtoHAsync(hpt, d, N, CU_STREAM_PER_THREAD));
    SGT_CHECK(cuMemcpyDtoHAsync(hnb, d, N, nb));
    SGT_CHECK(cuStreamSynchronize(nb));
    SGT_EXPECT(has_pattern(hnb, N, 1));
    SGT_EXPECT(cuStreamQuery(b) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(cuStreamQuery(CU_STREAM_PER_THREAD) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(hb, N) && all_zero(hpt, N));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    SGT_EXPECT(all_marked(hb, N) && all_marked(hpt, N));
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    legacy_waits_for_blocking();
    legacy_ignores_non_blocking();
    blocking_waits_for_legacy();
    return pass("t-legacy-stream", "legacy default stream synchronises with blocking streams only");
}
