/* SPDX-License-Identifier: Apache-2.0 */
/* robust_fork_child_program_prot: fork() while a guarded copy is in flight
 * over pinned memory that the program protected itself, page by page.  The
 * program makes the middle page of a three-page pinned buffer read-only,
 * then a device-to-host copy into the whole buffer waits behind a hold, and
 * the program forks.  In the child, where syncguard drops the parent's
 * copies and unguards their pages, each page must get back the protection
 * the program gave it: the middle page read-only (a write faults into the
 * program's SIGSEGV handler), the others writable, all readable.  The
 * parent then releases the hold, synchronizes (no race) and finds the
 * copied data, its middle page still read-only.
 *
 * Emulator only: a real driver marks pinned memory MADV_DONTFORK, so a
 * child touching it faults whatever syncguard does.
 *
 * SG-EMU-ONLY
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgt_robust.h"

#define OLD 0x11
#define NEW 0xc3
#define PAGES 3u
#define READ_ONLY_PAGE 1u               /* the one the program protects */

static size_t page;
/* Every page of buf readable, and writable unless it is READ_ONLY_PAGE. */
static int pages_as_protected(unsigned char *buf, const char *who)
{
    int ok = 1;
    for (unsigned i = 0; i < PAGES; i++) {
        int r = sgt_probe_faults(buf + i * page + 100, 0), w = sgt_probe_faults(buf + i * page + 200, 1);
        int writable = i != READ_ONLY_PAGE;
        printf("%s: page %u: read %s, write %s (want %s)\n", who, i, r ? "FAULTS" : "ok",
               w == 1 ? "faults" : w ? "FAULTS WRONGLY" : "ok",
               writable ? "writable" : "read-only");
        ok &= r == 0 && w == (writable ? 0 : 1);
    }
    return ok;
}

int main(void)
{
    sgt_watchdog(60);
    page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(PAGES * page, NEW);
    unsigned char *host = sgt_pinned_bytes(PAGES * page, OLD);
    sgt_probe_install();
    if (mprotect(host + READ_ONLY_PAGE * page, page, PROT_READ) != 0) {
        perror("mprotect");
        return 2;
    }

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, PAGES * page, s));
    fflush(stdout);
    pid_t child = sgt_fork();
    if (child == 0) {
        int ok = pages_as_protected(host, "child");
        fflush(stdout);
        _exit(ok ? 0 : 1);
    }
    int st = sgt_wait_status(child);
    int child_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("child: %s %d\n", WIFEXITED(st) ? "exit status" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));

    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (size_t i = 0; i < PAGES * page; i++)
        wrong += host[i] != NEW;
    printf("parent: %u bytes not the copied data\n", wrong);
    int parent_ok = pages_as_protected(host, "parent");
    mprotect(host, PAGES * page, PROT_READ | PROT_WRITE);
    sgt_free_all(s, dev, host);
    return sgt_check_line(child_ok && !wrong && parent_ok);
}
