/* SPDX-License-Identifier: Apache-2.0 */
/* robust_futex_sem_race: the twin of robust_futex_sem_ok with a race: after
 * the semaphore's wait and post on the page (which must keep working), the
 * host writes a byte of the copy, still in flight, on that same page: the
 * page is guarded read-only from the moment syncguard met the semaphore's
 * atomics there (so that futex() can read the word), which still catches
 * the early write: reported, and the write lands after the copy.
 *
 * The set-up, as there: a semaphore in the same pinned struct as the data
 * a copy fills (a sem_t at the start of a page, the copy's bytes later on
 * it).  While the copy is in flight, thread B blocks in sem_wait (glibc:
 * atomics on the semaphore's word, then futex(FUTEX_WAIT) on it) and the
 * main thread sem_posts it (futex(FUTEX_WAKE)).  The kernel's futex reads
 * the word itself and fails with EFAULT on an inaccessible page, which
 * glibc answers by aborting ("The futex facility returned an unexpected
 * error code").  The semaphore's page must stay usable: B is woken, no
 * report, and the copy's bytes are right after synchronizing.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write robust_futex_sem_race.c:[0-9]* in main
 */
#if !defined(__x86_64__)
#include "sgt_x86_only.h"
/* glibc's lock and semaphore calls make an atomic access to their word
 * before any futex(): on aarch64 that access settles the page (no
 * single-stepping), so the futex never meets a guard there. */
SGT_X86_ONLY("a thread blocked in futex() on a guarded page: on aarch64 the lock's "
             "atomic access settles the page first (robust_settle_other_thread_*)")
#else
#include <cuda.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgt_robust.h"

#define DATA_AT 1024u
#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3

static sem_t *sem;
static volatile long waiter_tid;
static int waited = -1;

static void *waiter(void *arg)
{
    (void)arg;
    waiter_tid = sgt_tid();
    waited = sem_wait(sem);
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *host = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    sem = (sem_t *)host;
    if (sem_init(sem, 0, 0) != 0)
        return 2;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host + DATA_AT, dev, COPIED, s));
    pthread_t t;
    if (pthread_create(&t, NULL, waiter, NULL) != 0)
        return 2;
    while (!waiter_tid)
        sched_yield();
    sgt_wait_in_syscall(waiter_tid, SYS_futex, (uintptr_t)sem, (uintptr_t)(sem + 1));
    int posted = sem_post(sem);
    pthread_join(t, NULL);
    CUresult q = cuStreamQuery(s); /* still held: the copy was in flight */
    sgt_release_when_host_waits(hold);
    host[DATA_AT + 7] = 0x5a; /* the race: an early write of the copy's byte */
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += host[DATA_AT + i] != (i == 7 ? 0x5a : NEW);
    printf("copy in flight meanwhile: %s; sem_post %d, sem_wait %d; %u copied bytes wrong\n",
           q == CUDA_ERROR_NOT_READY ? "yes" : "no", posted, waited, wrong);
    return sgt_check_line(q == CUDA_ERROR_NOT_READY && posted == 0 && waited == 0 && wrong == 0);
}
#endif
