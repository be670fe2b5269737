/* SPDX-License-Identifier: Apache-2.0 */
/* t-util.h - little helpers shared by the emulator self-tests. */
#ifndef SGEMU_T_UTIL_H
#define SGEMU_T_UTIL_H

#include "sgtest.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A recognisable byte pattern: pattern(i, seed) is the i-th byte. */
static inline unsigned char pattern(size_t i, unsigned int seed)
{
    return (unsigned char)(i * 31u + seed * 7u + 1u);
}

static inline void fill_pattern(void *buf, size_t n, unsigned int seed)
{
    for (size_t i = 0; i < n; i++)
        ((unsigned char *)buf)[i] = pattern(i, seed);
}

static inline bool has_pattern(const void *buf, size_t n, unsigned int seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)buf)[i] != pattern(i, seed))
            return false;
    return true;
}

static inline bool all_zero(const void *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)buf)[i])
            return false;
    return true;
}

/* Device memory holding pattern `seed`, written by a synchronous copy. */
static inline CUdeviceptr device_with_pattern(size_t n, unsigned int seed)
{
    unsigned char *tmp = malloc(n);
    SGT_EXPECT(tmp != NULL);
    fill_pattern(tmp, n, seed);
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, n));
    SGT_CHECK(cuMemcpyHtoD(d, tmp, n));
    free(tmp);
    return d;
}

/* Zeroed page-locked host memory. */
static inline unsigned char *pinned_zeroed(size_t n)
{
    void *p;
    SGT_CHECK(cuMemAllocHost(&p, n));
    memset(p, 0, n);
    return p;
}

/* The start of the self-tests of one held copy: the watchdog, sgt_init, a
 * non-blocking stream *s, n bytes of device memory *d holding pattern 1 and
 * n zeroed page-locked bytes *h; then, on *s, a hold and an async copy of
 * *d to *h, which waits for the returned hold's release. */
static inline sgt_hold *start_held_dtoh(CUstream *s, CUdeviceptr *d, unsigned char **h, size_t n)
{
    sgt_watchdog(30);
    sgt_init();
    SGT_CHECK(cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
    *d = device_with_pattern(n, 1);
    *h = pinned_zeroed(n);
    sgt_hold *hold = sgt_hold_stream(*s);
    SGT_CHECK(cuMemcpyDtoHAsync(*h, *d, n, *s));
    return hold;
}

/* Overwrites device memory on stream s.  Enqueued after a hold, it runs
 * only after the release, so a copy that reads `d` shows deterministically
 * whether it ran after the held stream's work (MARK bytes) or not. */
#define MARK 0xee
static inline void mark_on(CUstream s, CUdeviceptr d, size_t n)
{
    SGT_CHECK(cuMemsetD8Async(d, MARK, n, s));
}

static inline bool all_marked(const void *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)buf)[i] != MARK)
            return false;
    return true;
}

static inline int pass(const char *name, const char *what)
{
    printf("PASS: %s: %s\n", name, what);
    return 0;
}

#endif
