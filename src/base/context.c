/* SPDX-License-Identifier: Apache-2.0 */
/* The program's context label (syncguard_set_context). The fault handler
 * copies it into a race record while another thread may be changing it, and
 * may take no lock: the label lives in two buffers, a writer fills the one
 * not published and then publishes it by bumping a sequence number; a reader
 * copies the published one and retries if the sequence moved meanwhile
 * (twice as a writer could lap it: then it keeps the last copy, cut to the
 * buffer). Writers take a lock among themselves. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "base/context.h"

static _Atomic char labels[2][SG_CONTEXT_MAX];
static atomic_uint seq; /* labels[seq & 1] is the published one */
static pthread_mutex_t writers = PTHREAD_MUTEX_INITIALIZER;

void sg_context_set(const char *label)
{
    pthread_mutex_lock(&writers);
    unsigned next = atomic_load_explicit(&seq, memory_order_relaxed) + 1;
    _Atomic char *dst = labels[next & 1];
    size_t n = label ? strnlen(label, SG_CONTEXT_MAX - 1) : 0;
    for (size_t i = 0; i < n; i++)
        atomic_store_explicit(&dst[i], label[i], memory_order_relaxed);
    atomic_store_explicit(&dst[n], '\0', memory_order_relaxed);
    atomic_store_explicit(&seq, next, memory_order_release);
    pthread_mutex_unlock(&writers);
}

void sg_context_get(char *out)
{
    for (int tries = 0; tries < 3; tries++) {
        unsigned s = atomic_load_explicit(&seq, memory_order_acquire);
        const _Atomic char *src = labels[s & 1];
        for (size_t i = 0; i < SG_CONTEXT_MAX; i++)
            out[i] = atomic_load_explicit(&src[i], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&seq, memory_order_relaxed) == s)
            break;
    }
    out[SG_CONTEXT_MAX - 1] = '\0';
}
