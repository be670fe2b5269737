/* SPDX-License-Identifier: Apache-2.0 */
/* The composition root: start-up, fork and exit, which call into every
 * floor below. */
#ifndef SG_PRELOAD_ROOT_H
#define SG_PRELOAD_ROOT_H

/* Initialisation: runs once, from the constructor or the first wrapper. */
void sg_init(void);
/* Registers the fork hooks (fork.c) and the exit handler (exit.c). */
void sg_fork_install(void);
void sg_exit_install(void);
/* libc/sigmask.c: the real mask and jump functions, looked up at start-up. */
void sg_sigmask_install(void);
/* A raw fork (number SYS_fork, or SYS_clone with the arguments a1..a5)
 * made through real, with the fork hooks around it. */
long sg_fork_raw(long (*real)(long, ...), long number, long a1, long a2, long a3, long a4,
                 long a5);

#endif
