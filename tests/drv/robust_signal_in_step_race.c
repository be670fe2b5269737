/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_in_step_race: a signal between a fault and its single
 * step's trap.  The program adds to a neighbour word of a copy in flight
 * (an add to memory, which syncguard single-steps); while syncguard
 * handles that fault, holding its lock, a SIGUSR1 arrives (raised just
 * before the mprotect that opens the page for the step: sgt_in_lock.h) and
 * its handler reads another neighbour byte of the page: let through, the
 * page opened and guarded again once syncguard leaves its lock.  That
 * re-guarding used to close the page under the pending step: the stepped
 * add faulted again, and syncguard settled the page, waiting for the copy
 * (counted in faults_settled), so that the program's early read of the
 * copy after it was no longer seen.  Now the stepped page stays open until
 * the step's trap and is guarded again after it: the add lands once, the
 * early read is reported and sees the copied data.
 *
 * SG-LINK: -rdynamic
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_signal_in_step_race.c:[0-9]* in main
 * SG-GREP: faults_neighbour=1, faults_emulated=0, faults_settled=0,
 */
#include "sgt_x86_only.h"
#if !defined(__x86_64__)
SGT_X86_ONLY("an add to memory, single-stepped with the x86 trap flag")
#else
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgt_in_lock.h"
#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3

static volatile unsigned char *touch;
static volatile unsigned char seen;

static void on_signal(int sig)
{
    (void)sig;
    seen = *touch;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGNAL_IN_LOCK, &sa, NULL);

    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *host = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    uint32_t *count = (uint32_t *)(host + 2048); /* neighbours of the copy */
    touch = host + 3000;
    *count = 0;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s));
    sgt_in_lock_arm_before(PROT_READ | PROT_WRITE);
    __asm__ volatile("addl $1, %0" : "+m"(*count)); /* stepped; the signal lands in its fault */
    int raised = sgt_in_lock_raised;
    sgt_release_when_host_waits(hold);
    unsigned char early = host[0]; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += host[i] != NEW;
    printf("signal raised in the fault: %s; handler saw 0x%02x; count %u; early read 0x%02x; "
           "%u copied bytes wrong after sync\n",
           raised ? "yes" : "no", seen, *count, early, wrong);
    return sgt_check_line(raised && seen == OLD && *count == 1 && early == NEW && wrong == 0);
}
#endif
