/* SPDX-License-Identifier: Apache-2.0 */
/* robust_fwrite: fwrite(3) of the pinned destination of a device-to-host
 * copy still in flight.  A large fwrite hands the user buffer straight to
 * write(2) inside glibc (no shim sees that call), a small one copies it into
 * the FILE's buffer; both are host reads of the copy: reported
 * (early-host-read, at the fwrite call), waited for, and the file gets the
 * COPIED bytes, which are read back after fflush.
 *   copy 1: 8 KiB, fwrite of all of it;
 *   copy 2: 8 KiB, fwrite of 100 bytes from byte 300 of it.
 *
 * Each copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait), so without syncguard the file
 * would get the old bytes.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 0 of a 8192-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 300 of a 8192-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_fwrite.c:[0-9]* in main
 * SG-GREP: syncguard: 2 races reported (2 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgt_robust.h"

#define BYTES 8192u
#define SMALL_AT 300u
#define SMALL 100u
#define OLD 0x11                        /* the host buffer before the copies */
#define NEW1 0xc3                       /* what copy 1 delivers */
#define NEW2 0x3c                       /* what copy 2 delivers */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev1, dev2;
    SGT_CHECK(cuMemAlloc(&dev1, BYTES));
    SGT_CHECK(cuMemAlloc(&dev2, BYTES));
    SGT_CHECK(cuMemsetD8(dev1, NEW1, BYTES));
    SGT_CHECK(cuMemsetD8(dev2, NEW2, BYTES));
    SGT_CHECK(cuCtxSynchronize());      /* only the copies below are pending */
    unsigned char *host1, *host2;
    SGT_CHECK(cuMemAllocHost((void **)&host1, BYTES));
    SGT_CHECK(cuMemAllocHost((void **)&host2, BYTES));
    memset(host1, OLD, BYTES);
    memset(host2, OLD, BYTES);
    FILE *f = tmpfile();
    unsigned char *back = calloc(1, BYTES + SMALL);
    if (!f || !back) {
        perror("tmpfile/calloc");
        return 2;
    }

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host1, dev1, BYTES, s));
    sgt_release_when_host_waits(hold);
    size_t n1 = fwrite(host1, 1, BYTES, f);               /* race 1 */
    SGT_CHECK(cuStreamSynchronize(s));

    hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host2, dev2, BYTES, s));
    sgt_release_when_host_waits(hold);
    size_t n2 = fwrite(host2 + SMALL_AT, 1, SMALL, f);    /* race 2 */
    SGT_CHECK(cuStreamSynchronize(s));

    int flushed = fflush(f) == 0;
    rewind(f);
    size_t got = fread(back, 1, BYTES + SMALL, f);
    unsigned wrong = 0;
    for (unsigned i = 0; i < BYTES + SMALL; i++)
        wrong += back[i] != (i < BYTES ? NEW1 : NEW2);
    printf("fwrite returned %zu and %zu; flushed: %s; file: %zu bytes, %u not the copied data\n",
           n1, n2, flushed ? "yes" : "no", got, wrong);
    fclose(f);
    free(back);
    SGT_CHECK(cuMemFreeHost(host1));
    SGT_CHECK(cuMemFreeHost(host2));
    SGT_CHECK(cuMemFree(dev1));
    SGT_CHECK(cuMemFree(dev2));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(n1 == BYTES && n2 == SMALL && flushed && got == BYTES + SMALL && !wrong);
}
