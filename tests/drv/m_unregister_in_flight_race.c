/* m_unregister_in_flight_race: unregistering pinned memory
 * (cuMemHostUnregister) while a copy into it is in flight: like
 * m_free_in_flight_race, reported as "free-in-flight".  Twin:
 * m_free_after_sync_ok.
 *
 * SG-EXPECT: free-in-flight
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    uint32_t *host = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(host != MAP_FAILED);
    SGT_CHECK(cuMemHostRegister(host, BYTES, 0));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemHostUnregister(host));   /* the copy is still in flight */
    SGT_CHECK(cuStreamSynchronize(s));
    printf("unregistered while in flight; %u words not copied\n", count_wrong(host, WORDS, NEW));
    return 0;
}
