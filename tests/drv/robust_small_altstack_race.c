/* SPDX-License-Identifier: Apache-2.0 */
/* robust_small_altstack_race: a race reported while the thread has a small
 * alternate signal stack (Rust gives every thread one of 8 KiB), with an
 * inaccessible guard page right below it: the kernel's signal frame
 * (AT_MINSIGSTKSZ) plus 2 KiB, at most 8 KiB.  syncguard's handler
 * runs on that stack (SA_ONSTACK); the report (stack unwinding, the race's
 * description) must fit, or move elsewhere: it used to overflow into the
 * guard page and the process died.  The program then checks the copied
 * data, and prints how much of the alternate stack was used (a pattern
 * written over it beforehand, for bench/ and the curious: not asserted).
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_small_altstack_race.c:[0-9]* in main
 */
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u
#define OLD 0x0badf00du
#define NEW 0x5eed1234u
#define ALT_MAX 8192u
#define ALT_OURS 2048u /* what syncguard's handler may use of it */
#define PATTERN 0xa5

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    /* Where the kernel does not say (qemu-user does not), the C library's
     * MINSIGSTKSZ: 2 KiB on x86-64, 5 KiB on aarch64, whose frame is
     * larger (4 KiB of records for the FP/SIMD registers and more). */
    size_t ALT = (size_t)getauxval(AT_MINSIGSTKSZ) + ALT_OURS;
    if (ALT < (size_t)MINSIGSTKSZ + ALT_OURS)
        ALT = (size_t)MINSIGSTKSZ + ALT_OURS;
    if (ALT > ALT_MAX)
        ALT = ALT_MAX;
    unsigned char *map = mmap(NULL, page + ALT, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) != 0) {
        perror("mmap/mprotect");
        return 2;
    }
    unsigned char *alt = map + page; /* the guard page lies below it */
    memset(alt, PATTERN, ALT);
    stack_t ss = { .ss_sp = alt, .ss_size = ALT, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) {
        perror("sigaltstack");
        return 2;
    }

    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, WORDS * sizeof(uint32_t), s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = ((volatile uint32_t *)host)[0] != NEW; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    for (unsigned i = 1; i < WORDS; i++)
        wrong += host[i] != NEW;

    size_t untouched = 0;
    while (untouched < ALT && alt[untouched] == PATTERN)
        untouched++;
    printf("%u words wrong; %zu of the %zu bytes of the alternate stack used\n", wrong,
           ALT - untouched, ALT);
    return sgt_check_line(wrong == 0);
}
