/* SPDX-License-Identifier: Apache-2.0 */
/* robust_json_fd_reused_ok: see robust_json_fd_reused.h.  The reads of
 * robust_json_fd_reused_race after synchronizing: no report, no JSON file
 * open before exit, and at exit a JSON file holding the summary alone
 * ("reports":0); the program's file holds only its own two lines.  Twin:
 * robust_json_fd_reused_race.
 *
 * SG-OPTIONS: json_path=robust_json_fd_reused_ok
 * SG-EXPECT: silent
 */
#include "robust_json_fd_reused.h"

int main(void)
{
    return json_fd_reused_main("robust_json_fd_reused_ok", 0);
}
