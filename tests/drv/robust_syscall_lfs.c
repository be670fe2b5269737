/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_lfs: positional I/O of guarded buffers in a program built
 * with large-file support (_FILE_OFFSET_BITS=64, as CPython, coreutils and
 * most distribution packages are): glibc's headers then bind pread, pwrite,
 * preadv and pwritev to the symbols pread64, pwrite64, preadv64 and
 * pwritev64.  These calls hand guarded buffers to the kernel just like the
 * plain ones and must behave the same:
 *   1. pwrite() of the pinned destination of a D2H copy in flight: reported
 *      (early-host-read), full count written, the file gets the COPIED data;
 *   2. pread() into the pinned source of an H2D copy in flight: reported
 *      (early-host-write), full count read, the device receives the ORIGINAL
 *      data and the host buffer the file's;
 *   3. pwritev() of a fresh D2H destination in flight (reported, copied data
 *      in the file) and 4. preadv() into a fresh H2D source in flight
 *      (reported, original data on the device).
 * Without syncguard's help the kernel fails each call with EFAULT.
 *
 * Each copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait).
 *
 * SG-EXPECT: early-host-read early-host-write
 * SG-GREP: syncguard: 4 races reported (2 early-host-read, 2 early-host-write
 */
#define _FILE_OFFSET_BITS 64
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u
#define OLD 0x11                        /* host buffers before the copies */
#define NEW 0xc3                        /* what the D2H copies deliver */
#define FILE_BYTE 0xf1                  /* the file's bytes for pread */

static unsigned count_not(const unsigned char *p, size_t n, unsigned char want)
{
    unsigned wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += p[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dnew, dh2d;
    SGT_CHECK(cuMemAlloc(&dnew, BYTES));
    SGT_CHECK(cuMemAlloc(&dh2d, BYTES));
    SGT_CHECK(cuMemsetD8(dnew, NEW, BYTES));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    unsigned char *back = sgt_malloc(BYTES), *content = sgt_malloc(BYTES);
    int fd = sgt_temp_file("robust_syscall_lfs");
    /* File layout: [0, BYTES) FILE_BYTE for the reads; pwrite at BYTES,
     * pwritev at 2 * BYTES. */
    memset(content, FILE_BYTE, BYTES);
    if (write(fd, content, BYTES) != (ssize_t)BYTES) {
        perror("write");
        return 2;
    }

    for (int step = 1; step <= 4; step++) {
        int d2h = step % 2 == 1;
        memset(host, OLD, BYTES);
        SGT_CHECK(cuMemsetD8(dh2d, 0, BYTES));
        SGT_CHECK(cuCtxSynchronize());
        sgt_hold *hold = sgt_hold_stream(s);
        if (d2h)
            SGT_CHECK(cuMemcpyDtoHAsync(host, dnew, BYTES, s));
        else
            SGT_CHECK(cuMemcpyHtoDAsync(dh2d, host, BYTES, s));
        sgt_release_when_host_waits(hold);
        struct iovec iov[2] = { { host, BYTES / 2 }, { host + BYTES / 2, BYTES / 2 } };
        ssize_t r;
        const char *what;
        switch (step) {
        case 1: what = "pwrite"; r = pwrite(fd, host, BYTES, BYTES); break;       /* race */
        case 2: what = "pread"; r = pread(fd, host, BYTES, 0); break;             /* race */
        case 3: what = "pwritev"; r = pwritev(fd, iov, 2, 2 * BYTES); break;      /* race */
        default: what = "preadv"; r = preadv(fd, iov, 2, 0); break;               /* race */
        }
        int err = errno;
        SGT_CHECK(cuStreamSynchronize(s));
        unsigned wrong;
        if (d2h) {
            memset(back, 0, BYTES);
            ssize_t g = pread(fd, back, BYTES, step == 1 ? BYTES : 2 * BYTES);
            wrong = g == (ssize_t)BYTES ? count_not(back, BYTES, NEW) : BYTES;
            printf("%s of a D2H destination in flight: returned %zd (%s); file: %u bytes not "
                   "the copied data\n", what, r, r < 0 ? strerror(err) : "no error", wrong);
        } else {
            SGT_CHECK(cuMemcpyDtoH(back, dh2d, BYTES));
            wrong = count_not(back, BYTES, OLD) + count_not(host, BYTES, FILE_BYTE);
            printf("%s into an H2D source in flight: returned %zd (%s); device + host: %u bytes "
                   "wrong\n", what, r, r < 0 ? strerror(err) : "no error", wrong);
        }
        SGT_SOFT_EXPECT(r == (ssize_t)BYTES);
        SGT_SOFT_EXPECT(wrong == 0);
    }
    close(fd);
    free(back);
    free(content);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dnew));
    SGT_CHECK(cuMemFree(dh2d));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_soft_check_line();
}
