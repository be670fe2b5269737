/* SPDX-License-Identifier: Apache-2.0 */
/* A host read of a word that a stream memory write (cuStreamWriteValue32/64)
 * targets: a poll of a flag. It is no race; once the write has landed it
 * is an observation of the write's stream up to the write. */
#ifndef SG_FAULT_FLAG_H
#define SG_FAULT_FLAG_H

#include <stdint.h>

/* Called with sg_model_lock held, for a read fault at addr that conflicts
 * with no copy. Returns 1, with the lock released, when the write of a
 * flag there had landed and its stream's work up to it was released (the
 * fault is to be retried); 0, with the lock still held, otherwise. */
int sg_flag_poll_observes(uintptr_t addr);
/* Whether addr is a pending flag's word (lock held). */
int sg_flag_at(uintptr_t addr);

#endif
