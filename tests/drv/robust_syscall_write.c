/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_write: write(2) of the pinned destination of a
 * device-to-host copy still in flight.  The kernel does not fault on a
 * protected user buffer, it fails the call with EFAULT; syncguard must
 * treat the call as a host read of the buffer: report it (early-host-read,
 * at the write() call), wait for the copy, and let the call write the
 * COPIED data, all of it, without an error.  The bytes are read back from
 * the other end of a pipe.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait), so without syncguard the pipe
 * would receive the old data.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 0 of a 8192-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_syscall_write.c:[0-9]* in main
 */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u                     /* two pages; a pipe holds 64 KiB */
#define OLD 0x11                        /* the host buffer before the copy */
#define NEW 0xc3                        /* what the copy delivers */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(BYTES, NEW);   /* only the copy below is pending */
    unsigned char *host = sgt_pinned_bytes(BYTES, OLD);
    int p[2];
    sgt_pipe(p);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    ssize_t w = write(p[1], host, BYTES); /* the race */
    int err = errno;

    unsigned char *back = calloc(1, BYTES);
    if (!back) {
        perror("calloc");
        return 2;
    }
    size_t got = 0;
    while (w > 0 && got < (size_t)w) {
        ssize_t r = read(p[0], back + got, (size_t)w - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < BYTES; i++)
        wrong += back[i] != NEW;
    printf("write() returned %zd (%s); %zu bytes read back, %u not the copied data\n", w,
           w < 0 ? strerror(err) : "no error", got, wrong);
    free(back);
    sgt_free_all(s, dev, host);
    return sgt_check_line(w == (ssize_t)BYTES && got == BYTES && !wrong);
}
