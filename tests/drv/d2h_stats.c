/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_stats: d2h_async_read_race at verbosity=1 must end with the exit
 * summary and syncguard's counters: one guarded copy of four pages, two
 * mprotect calls (guard at enqueue, release after the race was resolved),
 * one fault on the copy's bytes and no other kind of fault.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^==[0-9]*==syncguard: stats: mprotect_calls=2, pages_guarded=4, faults_race=1, faults_waited=0, faults_neighbour=0, faults_emulated=0, faults_settled=0, faults_stale=0, faults_passed_on=0, faults_let_through=0, faults_ordered_before=0, waits_abandoned=0, syscall_windows=0, guards_skipped_maps=0, guards_dropped_maps=0, maps_reads=1, pinned_huge=0, copies_sampled_out=0, faults_in_call=0, kernel_first_reads=0, kernel_channels=0, mprotect_ns=[1-9][0-9]*, fault_ns=[1-9][0-9]*$
 */
#include "d2h_async_read_race.c"
