/* SPDX-License-Identifier: Apache-2.0 */
/* Assertions, safe anywhere: in the fault handler, with any lock held, on
 * a stack of syncguard's own. SG_CHECK(cond) is always on; SG_DCHECK(cond)
 * only in a build configured with --enable-debug (SG_DEBUG; CI's default
 * build), and otherwise compiled but never evaluated. A failed check
 * writes "==PID==syncguard: CHECK failed: FILE:LINE: COND" to stderr with
 * the write system call and kills the process with SIGABRT, its default
 * action restored: no allocation, no stdio, no lock, nothing that could
 * fail the check again. */
#ifndef SG_BASE_CHECK_H
#define SG_BASE_CHECK_H

#include "base/common.h"

__attribute__((noreturn, cold)) void sg_check_failed(const char *file, int line,
                                                     const char *cond);

#define SG_CHECK(cond)                                                               \
    ((void)(SG_LIKELY(cond) ? 0 : (sg_check_failed(__FILE__, __LINE__, #cond), 0)))

#ifdef SG_DEBUG
#define SG_DCHECK(cond) SG_CHECK(cond)
#else
#define SG_DCHECK(cond) ((void)sizeof(!(cond)))
#endif

#endif
