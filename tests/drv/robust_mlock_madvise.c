/* SPDX-License-Identifier: Apache-2.0 */
/* robust_mlock_madvise: mlock(2) and madvise(MADV_POPULATE_WRITE) of
 * pinned memory whose pages a copy in flight guards (a program locking
 * its buffers, or prefaulting them, while the device fills them): the
 * calls touch no byte of the copy, so they must succeed as they would
 * without syncguard, with no report, and the copy's data arrive.  The
 * copy covers the first 256 bytes of a two-page buffer, the calls the
 * whole buffer.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define OLD 0x11
#define NEW 0xc3

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(256, NEW);
    unsigned char *host = sgt_pinned_bytes(2 * page, OLD);
    /* Whether this kernel has MADV_POPULATE_WRITE (5.14 and later), on
     * memory of the program's own. */
    unsigned char *own = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                              -1, 0);
    int have_populate = own != MAP_FAILED && madvise(own, page, MADV_POPULATE_WRITE) == 0;
    int ok = 1;
    for (int call = 0; call < 1 + have_populate; call++) {
        sgt_hold *hold = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpyDtoHAsync(host, dev, 256, s));
        sgt_release_when_host_waits(hold);
        errno = 0;
        int rc = call == 0 ? mlock(host, 2 * page) : madvise(host, 2 * page, MADV_POPULATE_WRITE);
        int err = errno;
        if (call == 0 && rc != 0 && (err == EPERM || err == EAGAIN)) {
            printf("mlock: not allowed here (%s)\n", strerror(err));
            rc = 0;
        }
        SGT_CHECK(cuStreamSynchronize(s));
        unsigned wrong = 0;
        for (size_t i = 0; i < 2 * page; i++)
            wrong += host[i] != (i < 256 ? NEW : OLD);
        printf("%s: %d (%s); %u bytes wrong after synchronizing\n",
               call ? "madvise(MADV_POPULATE_WRITE)" : "mlock", rc, rc ? strerror(err) : "ok",
               wrong);
        ok &= rc == 0 && wrong == 0;
        if (call == 0)
            munlock(host, 2 * page);
        memset(host, OLD, 2 * page);
    }
    if (!have_populate)
        printf("madvise(MADV_POPULATE_WRITE): not supported by this kernel\n");
    sgt_free_all(s, dev, host);
    return sgt_check_line(ok);
}
