/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_read_fortified: robust_syscall_read built the way
 * Ubuntu's and Fedora's compilers build by default, with _FORTIFY_SOURCE
 * and optimization, so that read() is glibc's inline wrapper from
 * <bits/unistd.h> inlined into main.  The report must show that inlined
 * frame and main's own line under it, and the SUMMARY must name main's
 * line, not the system header's.  (tests/Makefile.am builds it with -O2;
 * a build with CFLAGS=-O0 inlines nothing and fails the first SG-GREP.)
 * A cross build's header is the cross compiler's
 * (/usr/aarch64-linux-gnu/include/bits/unistd.h), a system header too.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^    #0 0x[0-9a-f]* read /usr/.*include/.*unistd\.h:[0-9]* (
 * SG-GREP: ^    #1 0x[0-9a-f]* main .*robust_syscall_read\.c:[0-9]* (
 * SG-GREP: ^SUMMARY: syncguard: early-host-write robust_syscall_read.c:[0-9]* in main
 */
#undef _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#include "robust_syscall_read.c"
