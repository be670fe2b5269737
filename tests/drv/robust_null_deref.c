/* SPDX-License-Identifier: Apache-2.0 */
/* robust_null_deref: a program that installs no SIGSEGV handler and
 * dereferences NULL dies of SIGSEGV, exactly as without syncguard (the
 * shell sees exit status 139), even with a guarded copy in flight: the
 * fault is not syncguard's, and syncguard must hand it to the default
 * action instead of swallowing it, looping on it or reporting it.  Core
 * dumps are switched off first (RLIMIT_CORE 0) so that none is left behind.
 *
 * SG-EXPECT: silent
 * SG-EXIT: 139
 * SG-NO-CHECK
 */
/* The twin of robust_accerr_default: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_accerr_default.c"
