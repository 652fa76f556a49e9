/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compiler attributes the core uses, guarded so that it builds with
 * every compiler QEMU supports (GCC >= 7.4, clang >= 10).
 */
#ifndef E1000E_PP_COMPILER_H
#define E1000E_PP_COMPILER_H

/*
 * A stack buffer the code fills before reading it: exempt it from
 * -ftrivial-auto-var-init (QEMU's build zeroes every local otherwise,
 * a 2 KB memset per frame for the gather buffer).  GCC has the
 * attribute from 12, clang from 8; elsewhere it is left out.  Every
 * supported compiler has the __has_attribute operator (GCC from 5).
 */
#define E1000E_PP_HAS_ATTRIBUTE(name) __has_attribute(name)

#if E1000E_PP_HAS_ATTRIBUTE(uninitialized)
#define E1000E_PP_NOINIT __attribute__((uninitialized))
#else
#define E1000E_PP_NOINIT
#endif

#endif
