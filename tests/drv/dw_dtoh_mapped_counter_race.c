/* SPDX-License-Identifier: Apache-2.0 */
/* dw_dtoh_mapped_counter_race: XLA's redzone check, and why the driver's
 * own accesses are the call's.  An async memset clears a counter in pinned
 * mapped memory, then cuMemcpyDtoHAsync copies the counter out by its
 * device address.  Both ends are host memory, so the driver moves the bytes
 * itself, on the CPU, inside the call, once the copy's stream has done its
 * earlier work (seen on the H200: the fault's stack was in libcuda, under
 * cuMemcpyDtoHAsync).  Here the memset is on another stream, which nothing
 * orders before the copy: the driver reads the counter while the memset
 * may still write it.  syncguard reports it as the driver's access inside
 * the call; it cannot wait there (the call may hold the driver's locks), so
 * the copy reads what it would without syncguard, and the program checks
 * nothing of it.  Twin: dw_dtoh_mapped_counter_ok (memset and a counting
 * kernel on the copy's own stream: stream order, no race, and the right
 * count).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: the driver's own inside cuMemcpyDtoHAsync
 * SG-GREP: cannot wait inside the driver's call
 * SG-NO-CHECK
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * dw_dtoh_mapped_counter_ok.c. */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels();
    uint32_t *counter = k_mapped_words(&alias); /* SGT_OLD until cleared */
    uint32_t *out = sgt_pinned(2 * sizeof *out);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN
    CUstream clearing = s;
    const uint32_t want = SGT_NEW;
#else
    CUstream clearing = sgt_stream(CU_STREAM_NON_BLOCKING);
    const uint32_t want = 0;
#endif

    sgt_hold *hold = sgt_hold_stream(clearing);
    SGT_CHECK(cuMemsetD32Async(alias, 0, 2, clearing));
#ifdef SG_TWIN
    sgt_launch_fill(sgt_kernel("sgt_fill"), s, alias, 2, SGT_NEW); /* counts */
#endif
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(out, alias, 2 * sizeof *out, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuCtxSynchronize());

    unsigned wrong = (out[0] != want) + (out[1] != want);
    printf("copied counter: %#x %#x\n", out[0], out[1]);
    SGT_CHECK(cuMemFreeHost(out));
    SGT_CHECK(cuMemFreeHost(counter));
    sgt_free_buffers(dev, host);
#ifdef SG_TWIN
    return sgt_verdict(wrong, "the copied counter");
#else
    (void)wrong; /* a race syncguard reports but cannot mend: no verdict on the data */
    return 0;
#endif
}
