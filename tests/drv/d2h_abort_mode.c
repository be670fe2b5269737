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

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    fflush(stdout);

    /* The race: syncguard aborts here. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    printf("early read: %u of %u words wrong (syncguard should have aborted)\n", early, WORDS);
    printf("check: MISMATCH the program went on after the race\n");
    return 1;
}
