/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_abort_mode: with mode=abort, syncguard reports an early read of a
 * cuMemcpyDtoHAsync destination and then aborts the program (SIGABRT: exit
 * status 134), so the program's own check never runs.
 *
 * SG-OPTIONS: mode=abort
 * SG-EXPECT: early-host-read
 * SG-EXIT: 134
 * SG-NOGREP: ^check:
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    fflush(stdout);

    /* The race: syncguard aborts here. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    printf("early read: %u of %u words wrong (syncguard should have aborted)\n", early, SGT_WORDS);
    printf("check: MISMATCH the program went on after the race\n");
    return 1;
}
