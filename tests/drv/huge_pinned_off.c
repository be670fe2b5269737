/* SPDX-License-Identifier: Apache-2.0 */
/* huge_pinned_off: with huge_pinned=0 a large pinned allocation is the
 * driver's own (not a huge-page mapping of syncguard's), and an early read
 * of a copy into it is reported as ever.
 *
 * SG-OPTIONS: huge_pinned=0
 * SG-EXPECT: early-host-read
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    uint32_t *host;
    SGT_CHECK(cuMemHostAlloc((void **)&host, BYTES, 0));
    SGT_EXPECT(huge_mapping(host) != 1);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    printf("read during the copy: %u of %u words wrong\n", early, (unsigned)WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (early) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
