/* SPDX-License-Identifier: Apache-2.0 */
/* dw_dtod_alias_race: cuMemcpyDtoDAsync whose destination is the device's
 * own address of mapped pinned memory (SGEMU_DEVICE_ALIAS on the emulator;
 * on a GPU with unified addressing the host address) writes host memory in
 * stream order; the host reads it before observing the copy.  Twin:
 * dw_dtod_alias_event_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Copy enqueued on .* by cuMemcpyDtoDAsync
 */
#include "k_launch.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr alias, dev = sgt_device_words(SGT_WORDS, SGT_NEW);
    uint32_t *host = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* dw_dtod_alias_event_ok */
    CUevent e = sgt_event();
#endif
    SGT_CHECK(cuCtxSynchronize());

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoDAsync(alias, dev, SGT_BYTES, s));
#ifdef SG_TWIN /* dw_dtod_alias_event_ok */
    SGT_CHECK(cuEventRecord(e, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
#else
    sgt_release_when_host_waits(hold);
#endif
    unsigned first = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synchronized */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_race_verdict(first, late, "cuStreamSynchronize");
}
