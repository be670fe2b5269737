/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_neighbour_gated: as robust_syscall_neighbour, a read(2)
 * into bytes of a guarded page that are not the copy's, but the copy cannot
 * complete until the host has done that read: its stream waits
 * (cuStreamWaitValue32) on a flag the host sets only afterwards (a
 * producer filling its half of a pinned page, then signalling the GPU).
 * Without syncguard the program runs to the end.  The read touches no byte
 * of the copy, so syncguard must neither report it nor make it wait for the
 * copy (which would wait forever): no report, no hang, the read transfers its full count, and after the flag and
 * cuStreamSynchronize the page holds the file's bytes and the copy's.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3
#define FILE_BYTE 0xf1

int main(void)
{
    sgt_watchdog(20);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *content = sgt_malloc(1024), *expect = sgt_malloc(page);
    unsigned char *host = sgt_pinned_bytes(page, OLD);
    int fd = sgt_temp_file("robust_syscall_neighbour_gated");
    sgt_fill_file(fd, content, 1024, FILE_BYTE);

    sgt_hold *gate = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    ssize_t r = read(fd, host + 2048, 1024);      /* no race */
    CUresult q = cuStreamQuery(s);      /* NOT_READY: the gate is closed */
    sgt_release(gate);
    SGT_CHECK(cuStreamSynchronize(s));

    memset(expect, OLD, page);
    memset(expect, NEW, COPIED);
    memset(expect + 2048, FILE_BYTE, 1024);
    int wrong = memcmp(host, expect, page) != 0;
    printf("read returned %zd; copy still gated after it: %s; page after sync %s\n", r,
           q == CUDA_ERROR_NOT_READY ? "yes" : "no", wrong ? "WRONG" : "right");
    close(fd);
    free(content);
    free(expect);
    sgt_free_all(s, dev, host);
    return sgt_check_line(r == 1024 && q == CUDA_ERROR_NOT_READY && !wrong);
}
