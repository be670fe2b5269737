/* SPDX-License-Identifier: Apache-2.0 */
/* Host functions and stream callbacks run on the stream after the work
 * before them, in order, and block the work after them while they run. */
#include "t-util.h"

#include <time.h>

#define N 1024

typedef struct seen {
    const unsigned char *h;
    int order;                  /* incremented by each host function */
    int fn_order, cb_order;
    int fn_saw_data;
    CUstream cb_stream;
    CUresult cb_status;
} seen;

static void host_fn(void *arg)
{
    seen *s = arg;
    s->fn_saw_data = has_pattern(s->h, N, 1);
    s->fn_order = ++s->order;
}

static void callback(CUstream stream, CUresult status, void *arg)
{
    seen *s = arg;
    s->cb_stream = stream;
    s->cb_status = status;
    s->cb_order = ++s->order;
}

static volatile int blocker_started, blocker_may_return;

static void blocker(void *arg)
{
    (void)arg;
    __atomic_store_n(&blocker_started, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&blocker_may_return, __ATOMIC_SEQ_CST))
        ;
}

static void wait_for_blocker(void)
{
    struct timespec t = { 0, 1000000 };
    while (!__atomic_load_n(&blocker_started, __ATOMIC_SEQ_CST))
        nanosleep(&t, NULL);    /* the host function starts: the stream runs it */
}

int main(void)
{
    CUstream s;
    CUdeviceptr d;
    unsigned char *h;
    sgt_hold *hold = start_held_dtoh(&s, &d, &h, N);
    seen sn = { .h = h };
    SGT_CHECK(cuLaunchHostFunc(s, host_fn, &sn));
    SGT_CHECK(cuStreamAddCallback(s, callback, &sn, 0));
    SGT_EXPECT(__atomic_load_n(&sn.order, __ATOMIC_SEQ_CST) == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(sn.fn_saw_data && sn.fn_order == 1 && sn.cb_order == 2);
    SGT_EXPECT(sn.cb_stream == s && sn.cb_status == CUDA_SUCCESS);

    /* A running host function holds back the work after it. */
    unsigned char *h2 = pinned_zeroed(N);
    SGT_CHECK(cuLaunchHostFunc(s, blocker, NULL));
    SGT_CHECK(cuMemcpyDtoHAsync(h2, d, N, s));
    wait_for_blocker();
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(h2, N));
    __atomic_store_n(&blocker_may_return, 1, __ATOMIC_SEQ_CST);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(h2, N, 1));
    return pass("t-hostfn", "host functions run in stream order and block the stream");
}
