/* SPDX-License-Identifier: Apache-2.0 */
/* procaddr_per_thread_sync: as procaddr_per_thread, a copy to stream NULL
 * through the per-thread variant of cuMemcpyDtoHAsync (looked up with
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM), but the host then calls
 * the per-thread cuStreamSynchronize on stream NULL, which waits for the
 * calling thread's default stream: reading the destination afterwards is
 * no race.  Twin of procaddr_per_thread.
 *
 * SG-EXPECT: silent
 */
/* The twin of procaddr_per_thread: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "procaddr_per_thread.c"
