/* SPDX-License-Identifier: Apache-2.0 */
/* robust_report_before_wait: when syncguard reports a race, the report is
 * written before the handler waits for the copy, so that a program that
 * then hangs has already said why (#11).  The copy waits behind a
 * cuStreamWaitValue32 node of a captured graph (sgt_hold_stream_in_graph:
 * a wait syncguard does not count as a gate, so it reports first).  The emulator's
 * sgemu_call_on_host_wait runs a function at the moment the handler blocks:
 * it looks at syncguard_race_count() (the race is counted once its report is
 * written) and only then opens the gate.  Before #11 the handler waited
 * first: the count was still 0 there.
 *
 * SG-EXPECT: early-host-read
 * SG-EMU-ONLY
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

typedef void (*call_on_host_wait_fn)(void (*fn)(void *), void *arg);

static unsigned long (*race_count)(void);
static sgt_hold *gate;
static unsigned long counted_before_wait = ~0ul;

/* In the faulting thread, as it blocks waiting for the copy. */
static void look_then_open(void *arg)
{
    (void)arg;
    counted_before_wait = race_count();
    sgt_release(gate);
}

int main(void)
{
    call_on_host_wait_fn on_host_wait =
        (call_on_host_wait_fn)dlsym(RTLD_DEFAULT, "sgemu_call_on_host_wait");
    race_count = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "syncguard_race_count");
    if (!on_host_wait) {
        printf("SKIP: needs the emulator's hook\n");
        return 77;
    }
    SGT_EXPECT(race_count != NULL);
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    gate = sgt_hold_stream_in_graph(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s)); /* behind the graph's wait */
    on_host_wait(look_then_open, NULL);
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race */
    printf("races counted when the handler began to wait: %lu\n", counted_before_wait);
    SGT_EXPECT(counted_before_wait == 1);
    return sgt_verdict(wrong, "the racy read");
}
