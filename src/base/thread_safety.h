/* SPDX-License-Identifier: Apache-2.0 */
/* The lock contracts, written where clang's thread-safety analysis can
 * check them (-Wthread-safety: make check-thread-safety, run in CI). Under
 * gcc they expand to nothing. The analysis is per function: a function
 * that calls one requiring a lock must hold it there, or say that its own
 * caller does (SG_REQUIRES), and a function that returns with a lock taken
 * or given back says so (SG_ACQUIRE, SG_RELEASE).
 *
 * A contract of the form "released if it returns 1" has no attribute: the
 * analysis follows a lock only through a function's entry and exit. Code
 * here is written so that every function keeps, takes or gives back its
 * locks whatever it returns; where that cannot be (a lock taken on one
 * path only), the function says SG_NO_THREAD_SAFETY_ANALYSIS and its
 * comment says why. */
#ifndef SG_BASE_THREAD_SAFETY_H
#define SG_BASE_THREAD_SAFETY_H

#if defined(__clang__)
#define SG_TSA_(x) __attribute__((x))
#else
#define SG_TSA_(x)
#endif

/* A type whose objects are locks ("mutex" in the analysis' words). */
#define SG_CAPABILITY(name) SG_TSA_(capability(name))
/* A variable or field read and written only with lock x held. */
#define SG_GUARDED_BY(x) SG_TSA_(guarded_by(x))
/* What a pointer points to is read and written only with lock x held. */
#define SG_PT_GUARDED_BY(x) SG_TSA_(pt_guarded_by(x))
/* Called with the locks held; they are still held on return (the function
 * may give them back and take them again meanwhile). */
#define SG_REQUIRES(...) SG_TSA_(requires_capability(__VA_ARGS__))
/* Called without the locks (it takes them itself). */
#define SG_EXCLUDES(...) SG_TSA_(locks_excluded(__VA_ARGS__))
/* Returns with the locks taken (called without them). */
#define SG_ACQUIRE(...) SG_TSA_(acquire_capability(__VA_ARGS__))
/* Called with the locks held; returns with them given back. */
#define SG_RELEASE(...) SG_TSA_(release_capability(__VA_ARGS__))
/* Returns ret (a constant) when it took the locks, anything else when it
 * took none. */
#define SG_TRY_ACQUIRE(ret, ...) SG_TSA_(try_acquire_capability(ret, __VA_ARGS__))
/* Returns only if the calling thread holds the lock (the analysis then
 * takes it as held). */
#define SG_ASSERT_CAPABILITY(x) SG_TSA_(assert_capability(x))
/* The function returns (a pointer to) lock x. */
#define SG_RETURN_CAPABILITY(x) SG_TSA_(lock_returned(x))
/* The function's body is not analysed (its declaration's contract still
 * binds its callers): say why where it is used. */
#define SG_NO_THREAD_SAFETY_ANALYSIS SG_TSA_(no_thread_safety_analysis)

#endif
