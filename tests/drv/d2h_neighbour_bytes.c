/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_neighbour_bytes: an async copy into bytes [0,100) of a 16 KiB pinned
 * buffer guards the whole first page, but the bytes after 100 are not the
 * copy's: the host may read byte 200 while the copy is in flight.  No
 * report, the byte keeps its value, and after cuStreamSynchronize the
 * copied bytes are there and the rest is untouched.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdio.h>

#include "sgtest.h"

#define BYTES 16384u
#define COPIED 100u                     /* the copy covers [0, COPIED) */
#define PROBE 200u                      /* same page, not the copy's */
#define OLD 0x11
#define NEW 0xab

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_bytes(BYTES, NEW);
    unsigned char *host = sgt_pinned(BYTES);
    for (unsigned i = 0; i < BYTES; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    sgt_release_when_host_waits(hold);

    /* No race: byte PROBE is not part of the copy. */
    unsigned char probe = ((volatile unsigned char *)host)[PROBE];

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < BYTES; i++)
        wrong += host[i] != (i < COPIED ? NEW : OLD);
    printf("byte %u during the copy: %#x (expected %#x); after cuStreamSynchronize: "
           "%u of %u bytes wrong\n", PROBE, probe, OLD, wrong, BYTES);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (probe != OLD || wrong) {
        printf("check: MISMATCH the buffer does not hold what the copy and the host wrote\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
