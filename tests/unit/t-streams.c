/* SPDX-License-Identifier: Apache-2.0 */
/* The legacy and per-thread default stream rules (model/streams.c): an
 * operation on the legacy stream follows all earlier work of the blocking
 * streams of its context, an operation on a blocking stream follows all
 * earlier legacy work, non-blocking streams are exempt, per-thread default
 * streams are blocking and one per thread; a destroyed stream's earlier
 * work still counts. The driver is a stand-in here:
 * the current context is the test's. */
#include <pthread.h>

#include "driver/driver.h"
#include "model/model.h"
#include "unit.h"

static CUcontext current = (CUcontext)0x1000;

CUcontext sg_current_ctx(void)
{
    return current;
}

const struct sg_driver *sg_driver(void)
{
    static const struct sg_driver none;
    return &none;
}

static uint64_t knows(struct sg_stream *s, struct sg_stream *of)
{
    struct sg_vc vc = { 0 };
    struct sg_stream_info info;
    sg_stream_snapshot(s, &vc);
    sg_stream_info(of, &info);
    uint64_t seq = sg_vc_get(&vc, info.idx);
    sg_vc_free(&vc);
    return seq;
}

static struct sg_stream *other_thread_ptds;

static void *per_thread_stream(void *arg)
{
    (void)arg;
    other_thread_ptds = sg_stream_get(NULL, 1);
    return NULL;
}

int main(void)
{
    CUstream blocking = (CUstream)0x10, nonblocking = (CUstream)0x20;
    sg_stream_created(blocking, 0, current);
    sg_stream_created(nonblocking, CU_STREAM_NON_BLOCKING, current);
    struct sg_stream *b = sg_stream_get(blocking, 0), *nb = sg_stream_get(nonblocking, 0);
    struct sg_stream *legacy = sg_stream_get(NULL, 0);
    struct sg_stream_info info;

    sg_stream_info(legacy, &info);
    CHECK(info.kind == SG_STREAM_LEGACY && info.handle == CU_STREAM_LEGACY,
          "NULL in a plain entry point is the legacy stream");
    CHECK(sg_stream_get(CU_STREAM_LEGACY, 1) == legacy,
          "CU_STREAM_LEGACY is the legacy stream even in a per-thread entry point");
    sg_stream_info(nb, &info);
    CHECK(info.kind == SG_STREAM_USER && !info.blocking, "a non-blocking stream is not blocking");

    uint64_t b1 = sg_stream_enqueue(b), b2 = sg_stream_enqueue(b);
    CHECK(b1 == 1 && b2 == 2, "each enqueue numbers the operation on its stream");
    sg_stream_enqueue(nb);
    sg_stream_enqueue(legacy);
    CHECK(knows(legacy, b) == 2, "legacy work follows the blocking stream's earlier work");
    CHECK(knows(legacy, nb) == 0, "legacy work does not follow a non-blocking stream");

    sg_stream_enqueue(b);
    CHECK(knows(b, legacy) == 1, "blocking-stream work follows earlier legacy work");
    sg_stream_enqueue(nb);
    CHECK(knows(nb, legacy) == 0, "non-blocking work does not follow legacy work");

    struct sg_stream *ptds = sg_stream_get(NULL, 1);
    sg_stream_info(ptds, &info);
    CHECK(info.kind == SG_STREAM_PER_THREAD && info.blocking,
          "NULL in a per-thread entry point is this thread's blocking default stream");
    CHECK(sg_stream_get(CU_STREAM_PER_THREAD, 0) == ptds,
          "CU_STREAM_PER_THREAD names it from any entry point");
    pthread_t t;
    pthread_create(&t, NULL, per_thread_stream, NULL);
    pthread_join(t, NULL);
    CHECK(other_thread_ptds && other_thread_ptds != ptds,
          "another thread has a per-thread stream of its own");
    sg_stream_enqueue(ptds);
    CHECK(knows(ptds, legacy) == 1, "per-thread default stream work follows legacy work");
    sg_stream_enqueue(legacy);
    CHECK(knows(legacy, ptds) == 1, "legacy work follows per-thread default stream work");

    current = (CUcontext)0x2000;
    struct sg_stream *legacy2 = sg_stream_get(NULL, 0);
    CHECK(legacy2 != legacy, "each context has a legacy stream of its own");
    sg_stream_enqueue(legacy2);
    CHECK(knows(legacy2, b) == 0, "legacy work follows only its own context's streams");

    struct sg_vc all = { 0 }, one = { 0 };
    sg_ctx_snapshot((CUcontext)0x1000, &one);
    sg_ctx_snapshot(NULL, &all);
    sg_stream_info(legacy2, &info);
    CHECK(sg_vc_get(&one, info.idx) == 0 && sg_vc_get(&all, info.idx) == 1,
          "a context snapshot covers its own streams; NULL covers every context");
    sg_vc_free(&one);
    sg_vc_free(&all);

    sg_stream_destroyed(blocking);
    sg_stream_created(blocking, CU_STREAM_NON_BLOCKING, (CUcontext)0x1000);
    struct sg_stream *reused = sg_stream_get(blocking, 0);
    sg_stream_info(reused, &info);
    CHECK(reused != b && !info.blocking, "a reused handle is a new stream with its own flags");

    current = (CUcontext)0x1000;
    struct sg_stream *unknown = sg_stream_get((CUstream)0x30, 0);
    sg_stream_enqueue(unknown);
    sg_stream_enqueue(reused);
    sg_stream_enqueue(legacy);
    CHECK(knows(legacy, b) == 3, "legacy work follows a destroyed blocking stream's earlier work");
    CHECK(knows(legacy, unknown) == 1,
          "legacy work follows a blocking stream first seen in use, not created");
    CHECK(knows(legacy, reused) == 0, "nor a non-blocking stream on a reused handle");

    struct sg_vc wait = { 0 };
    sg_vc_raise(&wait, 999, 5);
    sg_stream_wait_vc(nb, &wait);
    struct sg_vc seen = { 0 };
    sg_stream_snapshot(nb, &seen);
    CHECK(sg_vc_get(&seen, 999) == 5, "waiting for an event's work makes later work follow it");
    sg_vc_free(&wait);
    sg_vc_free(&seen);
    return unit_done();
}
