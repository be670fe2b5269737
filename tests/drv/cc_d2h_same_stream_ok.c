/* SPDX-License-Identifier: Apache-2.0 */
/* cc_d2h_same_stream_ok: the two copies of cc_d2h_over_h2d_source_race on
 * one stream, which runs them in order: the first reads the source before
 * the second overwrites it: no report.  Twin: cc_d2h_over_h2d_source_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of cc_d2h_over_h2d_source_race: the same program, with the
 * lines under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "cc_d2h_over_h2d_source_race.c"
