/* SPDX-License-Identifier: Apache-2.0 */
/* robust_json_fd_reused_race: see robust_json_fd_reused.h.  Two early reads
 * at two sites; after each the program closes the JSON file's descriptor
 * and dup2()s a file of its own onto that number.  The JSON file must hold
 * both race lines and the exit summary, the program's file only its own
 * two lines.  The reports come from the forked child (its stderr is the
 * program's); the parent, which checks the files, exits 0.  Twin:
 * robust_json_fd_reused_ok.
 *
 * SG-OPTIONS: json_path=robust_json_fd_reused_race
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in read_one
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in read_two
 * SG-GREP: syncguard: 2 races reported (2 early-host-read, 0 early-host-write
 * SG-EXIT: 0
 */
#include "robust_json_fd_reused.h"

int main(void)
{
    return json_fd_reused_main("robust_json_fd_reused_race", 1);
}
