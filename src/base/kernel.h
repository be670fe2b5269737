/* SPDX-License-Identifier: Apache-2.0 */
/* What the running kernel's version says about syncguard's own pinned
 * memory (model/hugepin.c). Pure functions: any context. */
#ifndef SG_BASE_KERNEL_H
#define SG_BASE_KERNEL_H

/* The major and minor version of a Linux release as uname(2) gives it
 * ("5.15.0-91-generic", "6.1", "5.19-rc3"): 0 with *major and *minor set,
 * -1 when it does not start with two numbers joined by a dot. */
int sg_parse_kernel_release(const char *release, unsigned *major, unsigned *minor);

/* Whether a kernel of that version copies a pinned anonymous page at the
 * first write after mprotect took its write permission away and gave it
 * back, parting it from the page the device reaches: 5.9 (do_wp_page
 * copies any anonymous page whose reference count is raised, as a pin
 * raises it) to 5.18 (5.19 marks such pages exclusive and keeps them). */
int sg_kernel_cow_parts_pins(unsigned major, unsigned minor);

#endif
