/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_neighbour: system calls given buffers that share a guarded
 * page with a copy in flight but none of its bytes.  An async copy fills
 * bytes [0, 256) of a pinned page; meanwhile the host
 *   read()s 1 KiB from a file into bytes [1024, 2048) of that page,
 *   write()s bytes [2048, 3072) to a pipe, and
 *   readv()s 512 + 512 bytes from the file into [3072, 4096).
 * No report, no EFAULT: every call transfers its full count, the page holds
 * the file's data where it was read, the pipe the host's bytes, and after
 * cuStreamSynchronize the copy's bytes are the copied data.
 *
 * Each call meets its own copy in flight, waiting behind a hold on its
 * stream (released when the host first blocks in the driver).
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11                        /* the host page before the copy */
#define NEW 0xc3                        /* what the copy delivers */
#define FILE_BYTE 0xf1                  /* what the file holds */

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page < 4096) {
        fprintf(stderr, "page too small\n");
        return 2;
    }
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);  /* only the copy below is pending */
    unsigned char *host = sgt_pinned_bytes(page, OLD);

    char path[] = "/tmp/robust_syscall_neighbour.XXXXXX";
    int fd = mkstemp(path), p[2];
    unsigned char *content = malloc(2048), *back = calloc(1, 1024), *expect = malloc(page);
    if (fd < 0 || !content || !back || !expect || pipe(p) != 0) {
        perror("mkstemp/malloc/pipe");
        return 2;
    }
    unlink(path);
    sgt_fill_file(fd, content, 2048, FILE_BYTE);

    /* Each call meets a fresh copy in flight (a settled page is open). */
    CUresult q[3];
    ssize_t r1 = 0, w = 0, r2 = 0;
    struct iovec iov[2] = { { host + 3072, 512 }, { host + 3584, 512 } };
    for (int i = 0; i < 3; i++) {
        sgt_hold *hold = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
        sgt_release_when_host_waits(hold);
        q[i] = cuStreamQuery(s);        /* NOT_READY: held */
        /* No race: none of these bytes is the copy's. */
        if (i == 0)
            r1 = read(fd, host + 1024, 1024);
        else if (i == 1)
            w = write(p[1], host + 2048, 1024);
        else
            r2 = readv(fd, iov, 2);
        SGT_CHECK(cuStreamSynchronize(s));
    }

    ssize_t got = read(p[0], back, 1024);
    SGT_CHECK(cuStreamSynchronize(s));
    memset(expect, OLD, page);
    memset(expect, NEW, COPIED);
    memset(expect + 1024, FILE_BYTE, 1024);
    memset(expect + 3072, FILE_BYTE, 1024);
    int page_wrong = memcmp(host, expect, page) != 0;
    unsigned pipe_wrong = 0;
    for (unsigned i = 0; i < 1024; i++)
        pipe_wrong += back[i] != OLD;
    int held = q[0] == CUDA_ERROR_NOT_READY && q[1] == CUDA_ERROR_NOT_READY &&
               q[2] == CUDA_ERROR_NOT_READY;
    printf("copies in flight: %s; read %zd, write %zd, readv %zd, pipe gave %zd bytes (%u wrong); "
           "page after sync %s\n", held ? "yes" : "no", r1, w, r2, got,
           pipe_wrong, page_wrong ? "WRONG" : "right");
    close(fd);
    free(content);
    free(back);
    free(expect);
    sgt_free_all(s, dev, host);
    return sgt_check_line(held && r1 == 1024 && w == 1024 && r2 == 1024 && got == 1024 &&
                          !pipe_wrong && !page_wrong);
}
