/* SPDX-License-Identifier: Apache-2.0 */
/* What the fault handler needs to know about the machine: the interrupted
 * context's PC, whether a fault was a write, single-stepping, and glibc's
 * jmp_buf. One header per machine (arch_x86_64.h, arch_aarch64.h), each
 * giving the same inline functions; everything else in fault/ is the same
 * code on both. Signal-safe. */
#ifndef SG_FAULT_ARCH_H
#define SG_FAULT_ARCH_H

#if defined(__x86_64__)
#include "fault/arch_x86_64.h"
#elif defined(__aarch64__)
#include "fault/arch_aarch64.h"
#else
#error "syncguard's fault handler knows x86-64 and aarch64 only"
#endif

#endif
