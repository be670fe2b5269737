/* SPDX-License-Identifier: Apache-2.0 */
/* robust_fork_after_report: a process in which syncguard has already
 * reported a race forks a child that does nothing wrong.  The child's
 * reports and exit status are its own: its exit(0) must give status 0 (not
 * syncguard's exitcode 66, which belongs to the parent), and it must write
 * nothing to stderr (no copy of the parent's summary).  The parent's own
 * report and exit status 66 are unaffected.
 *   1. The parent reads a copy in flight early: one report.
 *   2. fork(); the child's stderr goes to a pipe; the child calls exit(0).
 *   3. The parent checks the child's status and that the pipe stayed empty.
 * The copy waits behind a hold on its stream, released when the parent
 * blocks in the driver (syncguard's wait in step 1).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 4096u
#define NEW 0xc3

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(BYTES, NEW);
    unsigned char *host = sgt_pinned_bytes(BYTES, 0);

    /* 1 */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = 0;
    for (unsigned i = 0; i < BYTES; i++)
        early += ((volatile unsigned char *)host)[i] != NEW;   /* the race */
    SGT_CHECK(cuStreamSynchronize(s));

    /* 2 */
    fflush(stdout);
    fflush(stderr);
    int child_stderr;
    pid_t c = sgt_fork_piped(2, &child_stderr);
    if (c == 0)
        exit(0);

    /* 3 */
    char buf[4096];
    size_t got = sgt_read_all(child_stderr, buf, sizeof buf);
    int st = sgt_wait_status(c);
    int child_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && got == 0;
    printf("early read: %u bytes wrong; child: %s %d, %zu bytes on its stderr%s%s", early,
           WIFEXITED(st) ? "exit status" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), got, got ? ":\n" : "\n", buf);
    sgt_free_all(s, dev, host);
    return sgt_check_line(!early && child_ok);
}
