/* SPDX-License-Identifier: Apache-2.0 */
/* The learn floor: what each kernel function does with the memory its
 * pointer arguments reach, learnt from the running program through
 * NVIDIA's Compute Sanitizer API and remembered across runs.
 *
 *   sanitizer.c  loads the API's library, subscribes, dispatches callbacks
 *   modules.c    loaded modules: their image's key, patching and unpatching
 *   functions.c  per function: learning state and the learnt set, found
 *                from a launch's handle without a lock
 *   records.c    one instrumented launch: its argument ranges, its device
 *                record, and the set read back once the host synchronized
 *   cache.c      the sets of every module image, in memory and on disk
 *   access_set.c the sets themselves
 *
 * A function's first learn_launches launches are instrumented (the module
 * patched, the launch given a record); once that many were read back, or
 * the cache knew the function, its set is complete and published, and the
 * module is unpatched when none of its launched functions is still being
 * learnt. Everything here runs in normal context (shims and the API's
 * callbacks, inside driver calls), never in a signal handler. */
#ifndef SG_LEARN_LEARN_H
#define SG_LEARN_LEARN_H

#include <cuda.h>
#include <stdint.h>

#include "driver/kparams.h"
#include "learn/access_set.h"

/* At the program's first cuInit, before the driver initializes (not in
 * syncguard's constructor: the API's library starts threads that call the
 * driver): loads the API and subscribes, unless learn_kernels=0 or
 * kernel_args=0; says at verbosity 1 why it cannot (no library, no device
 * patch built, another subscriber such as compute-sanitizer). Once per
 * process; other threads' calls wait for the first to end. */
void sg_learn_init(void);
/* At exit: writes what was learnt to the cache directory. */
void sg_learn_fini(void);
/* Whether learning is on in this process (the library subscribed). */
int sg_learn_active(void);

/* Around a launch's driver call, on the calling thread: the launch's
 * pointer-sized argument values (values[j] for the j-th of k, 0 when not
 * read), which the API's launch callback, inside the call, attributes
 * accesses to. Cheap when f is learnt or learning is off. */
void sg_learn_launch_prepare(CUfunction f, const struct sg_kparams *k, const uintptr_t *values);
void sg_learn_launch_done(void);

/* f's complete access set, or NULL (not learnt yet, or learning off).
 * Lock-free: one hash probe. */
const struct sg_access_set *sg_learn_set_of(CUfunction f);

/* ---- internal to the floor ---- */
struct sg_learn_module;
struct sg_learn_function;

#endif
