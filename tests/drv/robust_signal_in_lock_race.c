/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_in_lock_race: a signal handler runs while the thread is inside
 * syncguard holding its model lock (raised right after the mprotect that
 * guards a new copy, inside cuMemcpyDtoHAsync: sgt_in_lock.h).  The
 * handler does what event loops' handlers do, write() a byte to a pipe
 * (the self-pipe trick of CPython's signal.set_wakeup_fd, asyncio, libuv),
 * and touches the copy's page: a byte of the copy itself (a race).
 * syncguard's shims and fault handler must take no lock the interrupted
 * code holds: the write used to deadlock, the touch to kill the process
 * ("a syncguard bug").  The handler's access is let through (the page is
 * opened until syncguard leaves its lock; a race there is not seen), and
 * the copy's guard is back once the wrapper returns: the program's own early
 * read after the call is reported.
 *
 * SG-LINK: -rdynamic
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_signal_in_lock_race.c:[0-9]* in main
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgt_in_lock.h"
#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3

static int wake[2];
static volatile unsigned char *touch;
static volatile unsigned char seen;
static volatile ssize_t wrote = -2;

static void on_signal(int sig)
{
    (void)sig;
    char c = 'x';
    wrote = write(wake[1], &c, 1); /* the self-pipe trick */
    seen = *touch;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    sgt_pipe(wake);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGNAL_IN_LOCK, &sa, NULL);

    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *host = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    touch = host + 16;
    sgt_hold *hold = sgt_hold_stream(s);
    sgt_in_lock_arm();
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    sgt_release_when_host_waits(hold);
    char c = 0;
    ssize_t got = read(wake[0], &c, 1);
    unsigned char later = host[0]; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += host[i] != NEW;
    printf("signal raised in the lock: %s; handler wrote %zd byte, pipe gave %zd ('%c'); handler "
           "saw 0x%02x; later read 0x%02x; %u copied bytes wrong after sync\n",
           sgt_in_lock_raised ? "yes" : "no", (ssize_t)wrote, got, c, seen, later, wrong);
    int ok = sgt_in_lock_raised && wrote == 1 && got == 1 && c == 'x' && wrong == 0 &&
             later == NEW;
    return sgt_check_line(ok);
}
