/* SPDX-License-Identifier: Apache-2.0 */
/* m_order_two_threads_ok: the main thread's device-to-host copy X is queued
 * in the driver first; the emulator's hook pauses it there and lets a
 * second thread record event E on the same stream.  E follows X in the
 * driver, so synchronizing E covers X: no report, not even a latent one
 * (report_latent=1: #11's model gave E the earlier place, leaving X guarded
 * after the host had observed it).  Twin: m_order_two_threads_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: report_latent=1
 * SG-EMU-ONLY
 */
/* The twin of m_order_two_threads_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_order_two_threads_race.c"
