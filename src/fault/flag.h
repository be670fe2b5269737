/* SPDX-License-Identifier: Apache-2.0 */
/* A host read of a word that a stream memory write (cuStreamWriteValue32/64)
 * targets: a poll of a flag. It is no race; once the write has landed it
 * is an observation of the write's stream up to the write. */
#ifndef SG_FAULT_FLAG_H
#define SG_FAULT_FLAG_H

#include <stdint.h>

#include "model/model.h"

/* With sg_model_lock held (and held again on return: it is given back
 * while the driver is asked), for a read fault at addr that conflicts with
 * no copy. 1 when the write of a flag there had landed and its stream's
 * work up to it was released (the fault is to be retried). */
int sg_flag_poll_observes(uintptr_t addr) SG_REQUIRES(sg_model_lock);
/* Whether addr is a pending flag's word. */
int sg_flag_at(uintptr_t addr) SG_REQUIRES(sg_model_lock);

#endif
