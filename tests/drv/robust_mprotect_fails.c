/* SPDX-License-Identifier: Apache-2.0 */
/* robust_mprotect_fails: syncguard cannot protect the pages of a copy
 * (mprotect fails) and must then let the copy run unguarded: one warning
 * line ("cannot protect the host pages of a copy"), no report, no crash,
 * the program's data exactly as without syncguard.
 *
 * How mprotect is made to fail, without help from syncguard: the pinned
 * buffer is three pages mapped by the program, sealed with mseal(2)
 * (Linux 6.10+; as glibc and browsers seal memory), then registered with
 * cuMemHostRegister; any mprotect of sealed memory fails with EPERM.
 * Where there is no mseal (an older kernel, qemu-user 7.2) the program is
 * a skip with that reason: the other way to make mprotect fail, the
 * kernel's limit on mappings (ENOMEM on a split), is one syncguard
 * answers by opening the guards around instead (guards_dropped_maps;
 * robust_map_count_*), never with this warning.
 * Then a device-to-host copy into the middle page waits behind a hold;
 * the host reads it early (unguarded: nothing is seen, the read finds the
 * old bytes, as without syncguard), releases the hold, synchronizes, and
 * finds the copied bytes; a host-to-device copy from the middle page (its
 * guard, PROT_READ, fails the same way) delivers the host's bytes.  Exit
 * status 0.
 *
 * SG-EXIT: 0
 * SG-GREP: WARNING: syncguard: cannot protect the host pages of a copy
 * SG-NOGREP: SUMMARY: syncguard
 */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgt_robust.h"

#ifndef SYS_mseal
#define SYS_mseal 462 /* the same on x86-64 and aarch64 */
#endif

#define OLD 0x11
#define NEW 0xc3
#define HOST_BYTE 0x5e

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev, dev2;
    SGT_CHECK(cuMemAlloc(&dev, page));
    SGT_CHECK(cuMemAlloc(&dev2, page));
    SGT_CHECK(cuMemsetD8(dev, NEW, page));
    SGT_CHECK(cuMemsetD8(dev2, 0, page));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *buf = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *back = malloc(page);
    if (buf == MAP_FAILED || !back) {
        perror("mmap/malloc");
        return 2;
    }
    memset(buf, OLD, 3 * page);
    unsigned char *mid = buf + page;
    if (syscall(SYS_mseal, buf, 3 * page, 0UL) != 0) {
        printf("SKIP: no mseal(2) here (%s): nothing else makes mprotect fail without "
               "syncguard opening the guards instead\n", strerror(errno));
        return 77;
    }
    SGT_CHECK(cuMemHostRegister(buf, 3 * page, 0));

    /* A guarded copy into other pinned memory warms up syncguard and the
     * stream first. */
    unsigned char *warm;
    SGT_CHECK(cuMemAllocHost((void **)&warm, page));
    SGT_CHECK(cuMemcpyDtoHAsync(warm, dev, page, s));
    SGT_CHECK(cuStreamSynchronize(s));
    sgt_hold *hold = sgt_hold_stream(s);

    /* The D2H copy: its guard cannot be set. */
    SGT_CHECK(cuMemcpyDtoHAsync(mid, dev, page, s));
    unsigned early_old = 0;
    for (size_t i = 0; i < page; i++)
        early_old += ((volatile unsigned char *)mid)[i] == OLD;      /* unseen */
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late_wrong = 0;
    for (size_t i = 0; i < page; i++)
        late_wrong += mid[i] != NEW;

    /* The H2D copy from the same page. */
    memset(mid, HOST_BYTE, page);
    SGT_CHECK(cuMemcpyHtoDAsync(dev2, mid, page, s));
    SGT_CHECK(cuStreamSynchronize(s));

    SGT_CHECK(cuMemcpyDtoH(back, dev2, page));
    unsigned h2d_wrong = 0;
    for (size_t i = 0; i < page; i++)
        h2d_wrong += back[i] != HOST_BYTE;
    printf("D2H: early read saw %u of %zu old bytes (unguarded, as without syncguard); after "
           "sync %u bytes wrong; H2D: %u bytes wrong\n", early_old, page, late_wrong, h2d_wrong);
    SGT_CHECK(cuMemHostUnregister(buf));
    SGT_CHECK(cuMemFreeHost(warm));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuMemFree(dev2));
    SGT_CHECK(cuStreamDestroy(s));
    free(back);
    return sgt_check_line(early_old == page && !late_wrong && !h2d_wrong);
}
