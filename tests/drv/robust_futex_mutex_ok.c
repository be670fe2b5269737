/* SPDX-License-Identifier: Apache-2.0 */
/* robust_futex_mutex_ok: a global mutex next to a global array registered
 * with cuMemHostRegister (one page-aligned struct: the mutex, then the
 * array).  While a copy into the array is in flight, the main thread holds
 * the mutex and thread B blocks in pthread_mutex_lock (futex(FUTEX_WAIT)
 * on the mutex's word); the main thread unlocks (futex(FUTEX_WAKE)).  The
 * kernel's futex fails with EFAULT on an inaccessible page, and glibc
 * aborts on that.  The mutex's page must stay usable: B gets the mutex, no
 * report, the copy's bytes are right after synchronizing.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-EXPECT: silent
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
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define NEW 0xc3
#define PAGE_MAX 65536u

static struct {
    pthread_mutex_t lock;
    unsigned char data[2 * PAGE_MAX - sizeof(pthread_mutex_t)];
} global __attribute__((aligned(PAGE_MAX))) = { PTHREAD_MUTEX_INITIALIZER, { 0 } };

static volatile long locker_tid;
static int locked = -1;

static void *locker(void *arg)
{
    (void)arg;
    locker_tid = sgt_tid();
    locked = pthread_mutex_lock(&global.lock);
    pthread_mutex_unlock(&global.lock);
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page > PAGE_MAX)
        return 77;
    sgt_init();
    SGT_CHECK(cuMemHostRegister(&global, page, 0));
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);

    pthread_mutex_lock(&global.lock);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(global.data + 512, dev, COPIED, s));
    pthread_t t;
    if (pthread_create(&t, NULL, locker, NULL) != 0)
        return 2;
    while (!locker_tid)
        sched_yield();
    sgt_wait_in_syscall(locker_tid, SYS_futex, (uintptr_t)&global.lock,
                        (uintptr_t)(&global.lock + 1));
    int unlocked = pthread_mutex_unlock(&global.lock);
    pthread_join(t, NULL);
    CUresult q = cuStreamQuery(s); /* still held: the copy was in flight */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += global.data[512 + i] != NEW;
    SGT_CHECK(cuMemHostUnregister(&global));
    printf("copy in flight meanwhile: %s; unlock %d, lock %d; %u copied bytes wrong\n",
           q == CUDA_ERROR_NOT_READY ? "yes" : "no", unlocked, locked, wrong);
    return sgt_check_line(q == CUDA_ERROR_NOT_READY && unlocked == 0 && locked == 0 && wrong == 0);
}
#endif
