/* SPDX-License-Identifier: Apache-2.0 */
/* k_alias_read_race: pinned memory mapped for the device has a device
 * address of its own (the emulator with SGEMU_DEVICE_ALIAS=1; on a GPU
 * with unified addressing it is the host address), a kernel is given that
 * address, and the host reads through its own address before observing
 * the launch.  syncguard must tie the device address to the host range
 * (cuMemHostGetDevicePointer told it) and report the read.  Twin:
 * k_alias_stream_query_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched
 */
#include "k_launch.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUdeviceptr alias;
    uint32_t *host = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH, s, alias, SGT_NEW);
#ifdef SG_TWIN /* k_alias_stream_query_ok: poll until the launch is done */
    sgt_release(hold);
    CUresult q;
    while ((q = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY)
        ;
    SGT_CHECK(q);
#else
    sgt_release_when_host_waits(hold);
#endif

    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless polled */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuMemFreeHost(host));
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
