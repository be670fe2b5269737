/* SPDX-License-Identifier: Apache-2.0 */
/* dw_write_value_host_write_race: cuStreamWriteValue32 into a pinned word
 * is pending (behind a hold) and the host writes the word first.  The
 * device's store would overwrite the host's; syncguard must report the
 * write and let it land after the store, so the host's value survives.
 * Twin: dw_flag_poll_ok (the host only reads such a word).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: host write to a pinned word that a stream memory write still in flight targets
 * SG-GREP: Memory write enqueued on .* by cuStreamWriteValue32
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    volatile uint32_t *word = sgt_pinned(sizeof *word);
    *word = 0;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuStreamWriteValue32(s, (CUdeviceptr)(uintptr_t)word, 7, 0));
    sgt_release_when_host_waits(hold);
    *word = 9; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t got = *word;
    printf("the word after the stream: %u (the host wrote 9, the device 7)\n", got);
    printf("check: %s\n", got == 9 ? "ok" : "MISMATCH the device's store overwrote the host's");
    return got != 9;
}
