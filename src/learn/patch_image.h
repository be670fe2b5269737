/* SPDX-License-Identifier: Apache-2.0 */
/* The device patch (learn/patch/learn_patch.cu) as the build left it: a
 * fatbinary for sanitizerAddPatches, or an empty image (size 0) when the
 * library was built without nvcc and cannot learn. */
#ifndef SG_LEARN_PATCH_IMAGE_H
#define SG_LEARN_PATCH_IMAGE_H

#include <stddef.h>

extern const unsigned char sg_learn_patch_image[];
extern const size_t sg_learn_patch_image_size;

#endif
