/* SPDX-License-Identifier: Apache-2.0 */
/* aarch64 has no string instructions that fault once per iteration (its
 * memcpy and memset are loops of ordinary loads and stores, which the
 * handler emulates or settles one by one), and its atomics are the
 * exclusive and ordered accesses (LDXR/STXR, LDAR/STLR, CAS) and the LSE
 * atomic operations (LDADD, SWP, ...). Signal-safe: reads the instruction
 * word at PC. */
#include "config.h"

#include <ucontext.h>

#include "fault/strings.h"

int sg_decode_string_op(const ucontext_t *uc, struct sg_string_op *op)
{
    (void)uc, (void)op;
    return 0;
}

#define EXCLUSIVE_MASK 0x3f000000u /* load/store exclusive and ordered, CAS */
#define EXCLUSIVE_BITS 0x08000000u
#define LSE_ATOMIC_MASK 0x3f200c00u /* LDADD, LDCLR, LDEOR, LDSET, LD[SU]MAX/MIN, SWP */
#define LSE_ATOMIC_BITS 0x38200000u

int sg_is_atomic_rmw(const ucontext_t *uc)
{
    uint32_t insn = *(const uint32_t *)(uintptr_t)uc->uc_mcontext.pc;
    return (insn & EXCLUSIVE_MASK) == EXCLUSIVE_BITS || (insn & LSE_ATOMIC_MASK) == LSE_ATOMIC_BITS;
}
