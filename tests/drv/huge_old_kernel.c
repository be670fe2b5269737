/* SPDX-License-Identifier: Apache-2.0 */
/* huge_old_kernel: on Linux 5.9 to 5.18 the first write after a guard to a
 * pinned anonymous page can give the program a copy of its own, parting it
 * from the page the device writes, so huge_pinned (which makes large
 * pinned allocations anonymous memory) stays off there, said at
 * verbosity=1: a large allocation is the driver's, and an early read of a
 * copy into it is reported as ever. The program stands in for such a
 * kernel with its own uname (exported: tests/Makefile.am links it with
 * --export-dynamic-symbol), whose release is 5.15's.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ==[0-9]*==syncguard: huge_pinned: Linux 5.15.0-91-generic may copy a pinned page at the first write after a guard
 * SG-LINK: -Wl,--export-dynamic-symbol=uname
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))

int uname(struct utsname *u)
{
    static int (*real)(struct utsname *);
    if (!real)
        real = (int (*)(struct utsname *))dlsym(RTLD_NEXT, "uname");
    if (!real || real(u) != 0)
        return -1;
    strcpy(u->release, "5.15.0-91-generic");
    return 0;
}

int main(void)
{
    sgt_watchdog(60);
    huge_require(); /* where huge pages would be used but for the kernel */
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    uint32_t *host;
    SGT_CHECK(cuMemHostAlloc((void **)&host, BYTES, CU_MEMHOSTALLOC_PORTABLE));
    SGT_EXPECT(huge_mapping(host) != 1);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = SGT_OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    if (early || late) {
        printf("check: MISMATCH %u, %u words wrong\n", early, late);
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
