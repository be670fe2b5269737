/* SPDX-License-Identifier: Apache-2.0 */
/* dw_batch_write_race: cuStreamBatchMemOp with a 32-bit write into a
 * pinned word, after a device-to-host copy on the same stream; the host
 * writes the word before the batch is observed: a race (the device's store
 * would overwrite the host's; syncguard lets the host's land after it).
 * Twin: dw_batch_flag_poll_ok (the host spins on the word instead, and
 * seeing the value observes the copy).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: Memory write enqueued on .* by cuStreamBatchMemOp
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
    volatile uint32_t *word = sgt_pinned(sizeof *word);
    *word = 0;
    CUstreamBatchMemOpParams op = { 0 };
    op.writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op.writeValue.address = (CUdeviceptr)(uintptr_t)word;
    op.writeValue.value = 1;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuStreamBatchMemOp(s, 1, &op, 0));
#ifdef SG_TWIN /* dw_batch_flag_poll_ok */
    sgt_release(hold);
    while (*word != 1) /* seeing the store observes the copy before it */
        ;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after the flag was seen");
#else
    sgt_release_when_host_waits(hold);
    *word = 9; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t got = *word;
    sgt_free_buffers(dev, host);
    printf("the word after the stream: %u (the host wrote 9, the device 1)\n", got);
    printf("check: %s\n", got == 9 ? "ok" : "MISMATCH the device's store overwrote the host's");
    return got != 9;
#endif
}
