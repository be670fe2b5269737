/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_read: read(2) from a file into the pinned source of a
 * host-to-device copy still in flight.  The source is guarded PROT_READ, so
 * without help the kernel would fail the call with EFAULT; syncguard must
 * treat it as a host write of the buffer: report it (early-host-write, at
 * the read() call), wait for the copy, then let the call fill the buffer.
 * The device receives the ORIGINAL data, the host buffer holds the file's
 * data, and read() returns the full count without an error.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait), so without syncguard the device
 * would receive the file's data.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^  WRITE at 0x[0-9a-f]* (byte 0 of a 8192-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-write robust_syscall_read.c:[0-9]* in main
 */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgtest.h"

#define BYTES 8192u                     /* two pages */
#define ORIG 0x5e                       /* the source when the copy is enqueued */
#define FILE_BYTE 0xf1                  /* what the file holds */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_bytes(BYTES, 0);
    unsigned char *src = sgt_pinned(BYTES);
    memset(src, ORIG, BYTES);

    /* The file: BYTES bytes of FILE_BYTE, unlinked, positioned at 0. */
    char path[] = "/tmp/robust_syscall_read.XXXXXX";
    int fd = mkstemp(path);
    unsigned char *content = malloc(BYTES), *back = malloc(BYTES);
    if (fd < 0 || !content || !back) {
        perror("mkstemp/malloc");
        return 2;
    }
    unlink(path);
    memset(content, FILE_BYTE, BYTES);
    if (write(fd, content, BYTES) != (ssize_t)BYTES || lseek(fd, 0, SEEK_SET) != 0) {
        perror("write/lseek");
        return 2;
    }

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, BYTES, s));
    sgt_release_when_host_waits(hold);
    ssize_t r = read(fd, src, BYTES);   /* the race */
    int err = errno;

    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemcpyDtoH(back, dev, BYTES));
    unsigned dev_wrong = 0, host_wrong = 0;
    for (unsigned i = 0; i < BYTES; i++) {
        dev_wrong += back[i] != ORIG;
        host_wrong += src[i] != FILE_BYTE;
    }
    printf("read() returned %zd (%s); device: %u bytes not the original; host: %u bytes not "
           "the file's\n", r, r < 0 ? strerror(err) : "no error", dev_wrong, host_wrong);
    close(fd);
    free(content);
    free(back);
    SGT_CHECK(cuMemFreeHost(src));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (r != (ssize_t)BYTES || dev_wrong || host_wrong) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
