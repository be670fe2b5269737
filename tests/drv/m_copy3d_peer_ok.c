/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy3d_peer_ok: the asynchronous copy of m_copy3d_peer_race
 * (cuMemcpy3DPeerAsync into pinned rows) runs on the legacy stream, so the
 * synchronous cuMemcpy3DPeer after it on the same stream returns only once
 * it is complete: the host has observed it.  Twin: m_copy3d_peer_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_copy3d_peer_race.c"
