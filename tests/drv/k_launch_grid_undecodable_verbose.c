/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch_grid_undecodable_verbose: k_undecodable_verbose with the
 * launches made by cuLaunchGridAsync: where the driver cannot say where a
 * kernel's parameters lie, the buffer cuParamSet* filled cannot be read
 * either; nothing is guarded, and at verbosity 1 syncguard says so, once.
 *
 * SG-EMU-ONLY
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: cannot decode the parameters of kernel sgt_fill .cuFuncGetParamInfo does not answer for it
 */
#define K_HOW K_LEGACY_GRID
#include "k_undecodable_verbose.c"
