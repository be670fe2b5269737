/* SPDX-License-Identifier: Apache-2.0 */
/* ctx_teardown.h - the three calls that tear a context down, for the tests
 * of what goes with it (huge_teardown_*, huge_ctx_*, huge_primary_*,
 * m_teardown_unpinned_ok): cuCtxDestroy of a created context, a primary
 * context reset, and the primary context's last release. The driver frees
 * the context's pinned allocations and drops its registrations then.
 *
 * td_start makes the test a context of its own, never torn down: its
 * streams, holds (whose flag page is allocated in the context current at
 * the first hold) and copies live there. The memory a test wants torn down
 * is allocated between td_enter and td_teardown. The primary context is
 * retained once (sgt_init), so TD_RELEASE is its last release: once per
 * process, after any TD_RESET. */
#ifndef CTX_TEARDOWN_H
#define CTX_TEARDOWN_H

#include <cuda.h>

#include "sgtest.h"

enum td_kind { TD_DESTROY, TD_RESET, TD_RELEASE };

static const char *const td_names[] = { "cuCtxDestroy", "cuDevicePrimaryCtxReset",
                                        "cuDevicePrimaryCtxRelease" };
static CUcontext td_primary, td_created;

/* cuInit, the primary context retained, and the test's own context made
 * current; returns it. */
static inline CUcontext td_start(void)
{
    CUcontext own;
    td_primary = sgt_init();
    SGT_CHECK(cuCtxCreate(&own, NULL, 0, 0));
    return own;
}

/* Makes current the context that `kind` will tear down. The primary
 * context is retained anew first: after a reset the handle the program had
 * names a destroyed context (the H200's driver answers
 * CUDA_ERROR_CONTEXT_IS_DESTROYED to an allocation in it), and a retain
 * makes it live again. */
static inline void td_enter(enum td_kind kind)
{
    if (kind == TD_DESTROY) {
        SGT_CHECK(cuCtxCreate(&td_created, NULL, 0, 0));
        return;
    }
    SGT_CHECK(cuDevicePrimaryCtxRetain(&td_primary, 0));
    SGT_CHECK(cuCtxPushCurrent(td_primary));
}

/* Tears it down; the test's own context is current again. */
static inline void td_teardown(enum td_kind kind)
{
    switch (kind) {
    case TD_DESTROY:
        SGT_CHECK(cuCtxDestroy(td_created)); /* popped too */
        return;
    case TD_RESET:
        SGT_CHECK(cuDevicePrimaryCtxReset(0));
        SGT_CHECK(cuCtxPopCurrent(NULL));
        SGT_CHECK(cuDevicePrimaryCtxRelease(0)); /* td_enter's retain */
        return;
    case TD_RELEASE:
        SGT_CHECK(cuCtxPopCurrent(NULL));
        SGT_CHECK(cuDevicePrimaryCtxRelease(0)); /* td_enter's retain */
        SGT_CHECK(cuDevicePrimaryCtxRelease(0)); /* sgt_init's: the last */
        return;
    }
}

#endif
