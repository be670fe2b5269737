/* SPDX-License-Identifier: Apache-2.0 */
/* k_first_read_observed_ok: the host's first read of what a kernel was
 * given waits for the kernel, and meanwhile another thread of the program
 * synchronizes with the kernel's stream. Once that thread has joined, the
 * reading thread reads the rest: ordered after the observation, no race.
 * The copy was being handled by the first read's wait when the
 * observation came, so the observation could not release it; the wait
 * must then release it, not give it back still guarded (the rest of the
 * read was reported as kernel-early-host-read). The emulator orders it
 * exactly: the other thread synchronizes from inside the first read's
 * wait (sgemu_call_on_host_wait), before that wait can end. SG-EMU-ONLY:
 * a real driver has no such hook.
 *
 * SG-EXPECT: silent
 * SG-EMU-ONLY
 */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#include "k_launch.h"

static CUstream stream;
static sgt_hold *hold;
static sem_t go, synced;

/* The other thread: releases the kernel and synchronizes with its stream. */
static void *observer(void *arg)
{
    (void)arg;
    while (sem_wait(&go) != 0)
        ;
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(stream));
    sem_post(&synced);
    return NULL;
}

/* Run by the emulator as the first read's wait is about to block: the
 * observation happens before that wait can end. */
static void observe_now(void *arg)
{
    (void)arg;
    sem_post(&go);
    while (sem_wait(&synced) != 0)
        ;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels();
    void (*on_host_wait)(void (*)(void *), void *) =
        (void (*)(void (*)(void *), void *))(void (*)(void))dlsym(RTLD_DEFAULT, "sgemu_call_on_host_wait");
    SGT_EXPECT(on_host_wait != NULL);
    stream = sgt_stream(CU_STREAM_NON_BLOCKING);
    SGT_EXPECT(sem_init(&go, 0, 0) == 0 && sem_init(&synced, 0, 0) == 0);
    pthread_t t;
    SGT_EXPECT(pthread_create(&t, NULL, observer, NULL) == 0);

    hold = sgt_hold_stream(stream);
    k_fill(K_LAUNCH, stream, (CUdeviceptr)(uintptr_t)host, SGT_NEW);
    on_host_wait(observe_now, NULL);
    const volatile uint32_t *h = host;
    unsigned wrong = h[0] != SGT_NEW; /* the first read: waits, observed meanwhile */
    SGT_EXPECT(pthread_join(t, NULL) == 0);
    wrong += SGT_COUNT_WRONG(host + 1, SGT_WORDS - 1, SGT_NEW); /* after the join: ordered */
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after the other thread synchronized");
}
