/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_legacy_ok: m_sample_legacy_race with B a BLOCKING stream: the
 * sampled-out copy on B waits for the legacy stream's copy, so
 * synchronizing B observes it.  Silent, data right.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^==[0-9]*==syncguard:   1 guarded, 1 sampled out: m_sample_legacy_race.c:[0-9]* in step$
 * SG-GREP: ^==[0-9]*==syncguard:   1 guarded, 0 sampled out: m_sample_legacy_race.c:[0-9]* in step$
 */
#define SG_TWIN 1
#include "m_sample_legacy_race.c"
