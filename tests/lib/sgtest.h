/* SPDX-License-Identifier: Apache-2.0 */
/* sgtest.h - small helpers for syncguard's test programs.
 *
 * The same program runs on the CPU emulator (tests/emu, libcuda.so.1) and on
 * a real GPU: holds use only the documented driver API.
 *
 * Linking: the helpers are the libtool convenience library
 * tests/lib/libsgtest.la (LDADD = lib/libsgtest.la ... in tests/); it
 * needs the program to link a libcuda.so.1 too (the emulator's
 * emu/libcuda.la, or -lcuda on a GPU machine).
 *
 * Holding a stream: sgt_hold_stream(s) enqueues on s a
 * cuStreamWaitValue32(flag >= 1) on a page-locked, device-mapped flag;
 * everything enqueued on s afterwards waits until the flag is set:
 *   sgt_release(h)                 sets it now (from the host);
 *   sgt_release_when_host_waits(h) sets it when the program next blocks in
 *                                  the driver (emulator: exactly then, via
 *                                  sgemu_release_on_host_wait; real GPU: a
 *                                  helper thread after 200 ms).
 * So "work on s after the hold has not run yet" is certain until the
 * release, and tests need no timing to decide outcomes.
 */
#ifndef SGTEST_H
#define SGTEST_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* On error: prints file:line, the call's text and cuGetErrorName of the
 * result on stderr, then exits with status 2 (a hard test failure). */
#define SGT_CHECK(call) sgt_check_((call), #call, __FILE__, __LINE__)
void sgt_check_(CUresult r, const char *text, const char *file, int line);

/* On false: prints "FAIL: file:line: condition" on stdout and exits with
 * status 1. */
#define SGT_EXPECT(cond) sgt_expect_(!!(cond), #cond, __FILE__, __LINE__)
void sgt_expect_(int ok, const char *text, const char *file, int line);

/* cuInit(0), device 0, retain its primary context and make it current.
 * Exits with 77 (skip) when there is no device. */
CUcontext sgt_init(void);

typedef struct sgt_hold sgt_hold;

/* Work enqueued on s after this call waits until the hold is released.
 * sgtest is built without CUDA_API_PER_THREAD_DEFAULT_STREAM, so NULL is
 * the legacy default stream; pass CU_STREAM_PER_THREAD for the calling
 * thread's per-thread stream.  The hold (a few bytes of page-locked
 * memory) lives until exit. */
sgt_hold *sgt_hold_stream(CUstream s);
/* The same wait, as the node of a captured graph launched on s: syncguard
 * does not count it as a gate (see syncguard(7)), so its fault handler
 * blocks in the driver itself for a copy behind it, without a bound (tests
 * of that wait: a signal handler leaving it, another thread acting while
 * it lasts). */
sgt_hold *sgt_hold_stream_in_graph(CUstream s);
/* A hold no stream waits on yet: *flag is its flag's device address and
 * *value what its release stores, for a kernel that spins on the flag
 * (sgt_kernels.h's sgt_gated_fill): the kernel has begun, and cannot
 * finish before the release. */
sgt_hold *sgt_hold_gate(CUdeviceptr *flag, cuuint32_t *value);
/* Releases the hold now. */
void sgt_release(sgt_hold *h);
/* Releases the hold when a host thread next blocks in the driver (see
 * above); lets a test check that a call which must wait does wait. */
void sgt_release_when_host_waits(sgt_hold *h);

/* 1 when running on the emulator (sgemu_release_on_host_wait exists). */
int sgt_on_emulator(void);

/* Kills the test with a failure after `seconds`: a safety net so that a
 * wrong emulator or detector makes a test fail instead of hang.  It never
 * decides an outcome. */
void sgt_watchdog(unsigned int seconds);

/* The start of most tests: the watchdog (60 s), sgt_init, and the buffers
 * of sgt_buffers (below). Returns the context. */
CUcontext sgt_start(CUdeviceptr *dev, uint32_t **host);
/* A stream (cuStreamCreate with flags) and an event
 * (CU_EVENT_DISABLE_TIMING) of the current context, in one line. */
CUstream sgt_stream(unsigned int flags);
CUevent sgt_event(void);
/* A host function (cuLaunchHostFunc, cuStreamAddCallback's shape aside)
 * that sets a flag, and a wait for it: the host learns that the host
 * function ran without a CUDA synchronization. One flag per process. */
void CUDA_CB sgt_set_done(void *arg);
void sgt_wait_done(void);

/* The buffers most race tests copy through: SGT_WORDS 32-bit words of
 * device memory holding SGT_NEW, and a pinned host buffer holding SGT_OLD
 * that a device-to-host copy is to overwrite. */
#define SGT_WORDS 4096u /* 16 KiB, four pages */
#define SGT_BYTES (SGT_WORDS * sizeof(uint32_t))
#define SGT_OLD 0x0badf00du /* the host buffer before the copy */
#define SGT_NEW 0x5eed1234u /* what the copy delivers */

/* Allocates and fills both, in the current context, with no work pending. */
void sgt_buffers(CUdeviceptr *dev, uint32_t **host);
/* The pieces, for buffers of other sizes and contents: device memory of n
 * 32-bit words holding `word` (cuMemAlloc, cuMemsetD32), or of n bytes
 * holding `byte` (cuMemsetD8), then cuCtxSynchronize so that no work is
 * pending; and n bytes of pinned host memory (cuMemAllocHost). */
CUdeviceptr sgt_device_words(size_t n, uint32_t word);
CUdeviceptr sgt_device_bytes(size_t n, unsigned char byte);
void *sgt_pinned(size_t n);
/* The same for a host buffer of SGT_BYTES the test allocated itself
 * (pageable, or to be registered): filled with SGT_OLD. */
void sgt_buffers_for(CUdeviceptr *dev, uint32_t *host);
/* The same with program memory registered in place of cuMemAllocHost:
 * SGT_BYTES of anonymous mmap memory, cuMemHostRegister'ed. */
void sgt_registered_buffers(CUdeviceptr *dev, uint32_t **host);
/* Frees what sgt_buffers allocated: the pinned host buffer, then the
 * device memory. */
void sgt_free_buffers(CUdeviceptr dev, uint32_t *host);
/* How many of the first n words of h are not want. A macro, not a
 * function: the loop reads the buffer, and that read is the access under
 * test, which reports must place at the test's own line. */
#define SGT_COUNT_WRONG(h, n, want)                                         \
    ({                                                                      \
        const volatile uint32_t *sgt_h_ = (h);                              \
        unsigned sgt_wrong_ = 0;                                            \
        for (unsigned sgt_i_ = 0; sgt_i_ < (unsigned)(n); sgt_i_++)         \
            sgt_wrong_ += sgt_h_[sgt_i_] != (uint32_t)(want);               \
        sgt_wrong_;                                                         \
    })
/* Prints "WHEN: N of SGT_WORDS words wrong" and the "check:" line; returns
 * the exit status for main: 0 when no word was wrong. */
int sgt_verdict(unsigned wrong, const char *when);
/* The verdict of a race test that reads the destination twice: early (the
 * race: without syncguard it would see SGT_OLD; with it the read waits for
 * the copy) and again `after` synchronizing. Both reads must have seen the
 * copied data. */
int sgt_race_verdict(unsigned early, unsigned late, const char *after);

#ifdef __cplusplus
}
#endif

#endif
