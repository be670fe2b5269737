/* SPDX-License-Identifier: Apache-2.0 */
/* k_poll_flag_ok: a kernel polls a flag in pinned mapped memory that the
 * host sets 50 ms after the launch (cudaGraphsPerfScaling's protocol).  By
 * default (kernel_args=1) a host write to what a running kernel was given
 * is taken for such a signal: no report, no wait (issue 27: the wait made
 * the kernel time out and the program compute the wrong result), and the
 * allocation is a signalling channel from then on.  Twin: k_poll_flag_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: kernel_channels=1
 * SG-NOGREP: waits_abandoned=[1-9]
 */
#define SG_TWIN 1
#include "k_poll_flag_race.c"
