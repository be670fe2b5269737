/* SPDX-License-Identifier: Apache-2.0 */
/* sgemu.h - the test-only extension exported by the CPU emulation of the
 * CUDA driver (tests/emu/libcuda.so.1).  A real driver does not have it:
 * look it up with dlsym(RTLD_DEFAULT, "sgemu_release_on_host_wait") when a
 * program must run on both (tests/lib/sgtest.h does). */
#ifndef SGEMU_SGEMU_H
#define SGEMU_SGEMU_H

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The next time any host thread is about to block inside the emulator
 * waiting for work that is not complete yet (cuStreamSynchronize,
 * cuEventSynchronize, cuCtxSynchronize, a synchronous copy, an async copy
 * to pageable memory, a free that waits for the context), the emulator
 * first stores `value` to the 32-bit word at `flag` (device memory, or host
 * memory written like a device would: ignoring page protection) and wakes
 * the streams polling it.  Each registration fires once; every registration
 * pending at that moment fires.  Non-blocking calls (cuStreamQuery,
 * cuEventQuery) never fire it. */
__attribute__((visibility("default")))
void sgemu_release_on_host_wait(CUdeviceptr flag, cuuint32_t value);

typedef void (*sgemu_release_on_host_wait_fn)(CUdeviceptr flag, cuuint32_t value);

/* The next time any host thread is about to block in the emulator (as
 * above), that thread first calls fn(arg), with the emulator's lock held:
 * fn may only signal another thread (sem_post), never call the emulator.
 * Fires once. Lets a test act while a thread (syncguard's, inside a fault
 * handler) is blocked waiting for a held stream. */
__attribute__((visibility("default")))
void sgemu_call_on_host_wait(void (*fn)(void *), void *arg);

typedef void (*sgemu_call_on_host_wait_fn)(void (*fn)(void *), void *arg);

/* The next time any host thread enqueues work on a stream (a copy, an
 * event record, a memory operation...), that thread calls fn(arg) once the
 * work is queued, before the call returns to its caller, without the
 * emulator's lock.  Fires once.  Lets a test pause a thread between the
 * driver's queueing and whatever its caller (syncguard's shim) does after
 * the call returns, and act from another thread meanwhile. */
__attribute__((visibility("default")))
void sgemu_call_after_enqueue(void (*fn)(void *), void *arg);

typedef void (*sgemu_call_after_enqueue_fn)(void (*fn)(void *), void *arg);

/* Kernels (emu/kernel.c).  The CPU function that stands for the kernel
 * `name`: called once per launch, for the whole grid, on the stream's
 * worker in stream order, with the launch's parameters laid out as
 * offsets[i] and sizes[i] say (what cuFuncGetParamInfo answers).  Register
 * before cuModuleGetFunction looks the name up; cuModuleLoadData accepts
 * any image. */
typedef void (*sgemu_kernel_fn)(const void *args);
__attribute__((visibility("default")))
void sgemu_kernel_register(const char *name, sgemu_kernel_fn fn, unsigned nparams,
                           const size_t *offsets, const size_t *sizes);
typedef void (*sgemu_kernel_register_fn)(const char *name, sgemu_kernel_fn fn, unsigned nparams,
                                         const size_t *offsets, const size_t *sizes);

/* How a kernel's CPU function reaches memory, as a device does: device
 * memory directly, host memory (pinned, mapped) ignoring page protection. */
__attribute__((visibility("default")))
void sgemu_dev_read(void *dst, CUdeviceptr src, size_t n);
__attribute__((visibility("default")))
void sgemu_dev_write(CUdeviceptr dst, const void *src, size_t n);
/* An atomic add on the 32-bit word at p (system_scope: an atomic the host
 * shares, like atomicAdd_system); the old value. */
__attribute__((visibility("default")))
unsigned sgemu_dev_atomic_add(CUdeviceptr p, unsigned v, int system_scope);
typedef unsigned (*sgemu_dev_atomic_add_fn)(CUdeviceptr p, unsigned v, int system_scope);
typedef void (*sgemu_dev_read_fn)(void *dst, CUdeviceptr src, size_t n);
typedef void (*sgemu_dev_write_fn)(CUdeviceptr dst, const void *src, size_t n);

/* What the emulator recorded for the page-locked range holding p (its
 * cuMemHostAlloc or cuMemHostRegister flags) in *flags: 0, or -1 when no
 * such range holds p.  cuMemHostGetFlags answers the same, but under a name
 * syncguard does not wrap: a test reads what syncguard itself registered
 * for the program. */
__attribute__((visibility("default")))
int sgemu_host_flags(const void *p, unsigned int *flags);
typedef int (*sgemu_host_flags_fn)(const void *p, unsigned int *flags);

#ifdef __cplusplus
}
#endif

#endif
