/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_record_external_after_ok: the capture of m_capture_record_external_before_race with the external event record after the copy: synchronizing the event shows the copy complete.  Twin: m_capture_record_external_before_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_capture_record_external_before_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_capture_record_external_before_race.c"
