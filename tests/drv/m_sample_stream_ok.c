/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_stream_ok: m_sample_stream_race with the stream synchronized
 * before any read: guarded copies sharing a stream with sampled-out ones
 * are released by the synchronize; silent, every page right.
 *
 * SG-OPTIONS: sample=2:sample_first=1:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: ^==[0-9]*==syncguard: 0 races reported .*; 2 copies guarded$
 * SG-GREP: ^==[0-9]*==syncguard:   2 guarded, 2 sampled out: m_sample_stream_race.c:[0-9]* in main$
 */
#define SG_TWIN 1
#include "m_sample_stream_race.c"
