/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_event_ok: m_sample_event_race with the stream synchronized
 * before copy 2's page is read: the event after the sampled-out copy
 * observes it and the guarded copy before it; silent, every page right.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^==[0-9]*==syncguard: 0 races reported .*; 2 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 1 sampled out: m_sample_event_race.c:[0-9]* in enqueue$
 */
#define SG_TWIN 1
#include "m_sample_event_race.c"
