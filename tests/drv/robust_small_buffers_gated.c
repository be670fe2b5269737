/* SPDX-License-Identifier: Apache-2.0 */
/* robust_small_buffers_gated: as robust_small_buffers_packed (one
 * registered page carved into 32 buffers of 128 bytes, async copies into the
 * 16 even ones in flight, the host reading and writing the 16 odd ones),
 * but the copies cannot complete until the host has finished with its own
 * buffers: their stream waits (cuStreamWaitValue32) on a flag that the host
 * sets only after its loop, the pattern of a producer that fills its slots
 * of a pinned ring and then signals the GPU.  Without syncguard the program
 * runs to the end.  The host's accesses touch no byte of any copy, so
 * syncguard must neither report them nor make them wait for the copies
 * (which would wait forever): no report, no hang, every value right.
 *
 * SG-EXPECT: silent
 */
/* The twin of robust_small_buffers_packed: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_small_buffers_packed.c"
