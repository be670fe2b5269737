/* SPDX-License-Identifier: Apache-2.0 */
/* What syncguard has learnt, per kernel (by name), about the host memory a
 * kernel is given (kernel_args=1, fault/kernel_access.c): whether the host
 * and that kernel signal through it (a flag, a counter) or the kernel
 * leaves results there. A kernel's first launch teaches it; its later
 * launches, in any module, are then treated alike without the host paying
 * the first read's bounded wait again. The table is fixed-size memory:
 * safe in the fault handler. */
#ifndef SG_MODEL_KERNEL_KINDS_H
#define SG_MODEL_KERNEL_KINDS_H

#include "model/model.h"

enum sg_kernel_kind {
    SG_KERNEL_UNKNOWN,  /* nothing learnt (or the table is full) */
    SG_KERNEL_SIGNALS,  /* host and kernel signal through what it is given */
    SG_KERNEL_RESULTS,  /* the host read its results before the launch completed */
};

/* ---- with sg_model_lock held (safe in the fault handler) ---- */
/* What is known of the kernel called name (NULL: unknown). */
enum sg_kernel_kind sg_kernel_kind_of(const char *name) SG_REQUIRES(sg_model_lock);
/* Remembers what name does; the first answer stays (a kernel found to
 * signal is never taken for one of results again, nor the reverse). */
void sg_kernel_kind_learn(const char *name, enum sg_kernel_kind kind) SG_REQUIRES(sg_model_lock);

#endif
