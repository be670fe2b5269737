/* SPDX-License-Identifier: Apache-2.0 */
/* dw_flag_poll_other_stream_race: the program of dw_flag_poll_ok with the
 * flag written on another stream, which nothing orders after the copy:
 * seeing the flag observes nothing of the copy, and the read of its
 * destination is a race.  Twin: dw_flag_poll_ok.
 *
 * SG-EXPECT: early-host-read
 */
/* The twin of dw_flag_poll_ok: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_flag_poll_ok.c"
