/* SPDX-License-Identifier: Apache-2.0 */
/* procaddr_runtime_style_sync: as procaddr_runtime_style (every entry
 * point taken from cuGetProcAddress, itself found the way the CUDA runtime
 * finds it: dlopen("libcuda.so.1"), dlsym "cuGetProcAddress_v2"), but the
 * host reads the pinned destination only after cuStreamSynchronize, called
 * through a looked-up pointer: syncguard must see that synchronization and
 * stay silent.  Twin of procaddr_runtime_style.
 *
 * Only the test hold (sgtest) calls the driver directly, once the context
 * is current.
 *
 * SG-EXPECT: silent
 */
/* The twin of procaddr_runtime_style: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "procaddr_runtime_style.c"
