/* SPDX-License-Identifier: Apache-2.0 */
/* robust_program_mprotect_kept: a program that protects its own pinned
 * memory keeps its protection.  The program makes a pinned staging page
 * read-only with mprotect (to catch stray writes to data the GPU reads),
 * then uses it as the source of a host-to-device copy, and synchronizes
 * properly: no race.  After the copy, the page must still be read-only, as
 * without syncguard: a write to it must fault into the program's own
 * SIGSEGV handler (si_addr the address written, SEGV_ACCERR), which
 * siglongjmps out; the page keeps its bytes.  Same for a pinned page the
 * program made read-only and uses as the destination of a device-to-host
 * copy (DMA ignores page protection).
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define SRC_BYTE 0x5e
#define NEW 0xc3

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev, dsrc;
    SGT_CHECK(cuMemAlloc(&dev, page));
    SGT_CHECK(cuMemAlloc(&dsrc, page));
    SGT_CHECK(cuMemsetD8(dsrc, NEW, page));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, 2 * page));
    unsigned char *src = host, *dst = host + page;
    memset(src, SRC_BYTE, page);
    memset(dst, 0, page);
    if (mprotect(host, 2 * page, PROT_READ) != 0) {
        perror("mprotect");
        return 2;
    }
    sgt_probe_install();
    int before = sgt_probe_faults(src + 10, 1) == 1 && sgt_probe_faults(dst + 10, 1) == 1;

    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, page, s));
    SGT_CHECK(cuMemcpyDtoHAsync(dst, dsrc, page, s));
    SGT_CHECK(cuStreamSynchronize(s));

    int src_kept = sgt_probe_faults(src + 20, 1) == 1;
    int dst_kept = sgt_probe_faults(dst + 20, 1) == 1;
    unsigned char *back = (unsigned char *)dst;   /* reads are fine */
    unsigned dst_wrong = 0, src_wrong = 0;
    for (size_t i = 0; i < page; i++) {
        dst_wrong += back[i] != NEW;
        src_wrong += src[i] != SRC_BYTE;
    }
    printf("read-only before the copies: %s; after them: source %s, destination %s; "
           "%u + %u bytes wrong\n", before ? "yes" : "no", src_kept ? "still read-only" : "WRITABLE",
           dst_kept ? "still read-only" : "WRITABLE", src_wrong, dst_wrong);
    mprotect(host, 2 * page, PROT_READ | PROT_WRITE);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuMemFree(dsrc));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(before && src_kept && dst_kept && !src_wrong && !dst_wrong);
}
