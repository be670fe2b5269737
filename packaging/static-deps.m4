# SPDX-License-Identifier: Apache-2.0
# SG_STATIC_DEPS: ./configure --enable-static-deps[=DIR] links libunwind and
# elfutils (libdw, libelf, and the libbz2, liblzma and libz they need)
# statically into libsyncguard.so, their symbols hidden
# (--exclude-libs, naming these archives), so that it needs nothing but
# glibc. Not --exclude-libs,ALL: libsyncguard.so is itself linked from
# archives (src/'s floors, libtool convenience archives), and ALL would
# hide its own shims too: the library would export nothing. Used after the
# pkg-config checks of libunwind and libdw: it replaces UNWIND_LIBS and
# DW_LIBS (and UNWIND_CFLAGS when DIR has libunwind's headers).
#
# The archives must be position-independent: they are taken from DIR/lib,
# else (plain --enable-static-deps) from ./static-deps/lib, where
# dev/build-static-deps.sh puts them, else from the system's library
# directory. Debian's own cannot be linked into a shared object; the link
# test below says so, and what to do. src/base/glibc-compat.c, compiled by
# configure into packaging/glibc-compat.o (configure again after changing
# it; not under src/, where make clean removes every object), keeps the
# glibc it needs at 2.17.
AC_DEFUN([SG_STATIC_DEPS], [
AC_ARG_ENABLE([static-deps],
  [AS_HELP_STRING([--enable-static-deps@<:@=DIR@:>@],
    [link libunwind, libdw, libelf, libbz2, liblzma and libz statically into libsyncguard.so, symbols hidden, so that it needs glibc only; position-independent archives from DIR/lib (default: ./static-deps/lib, made by dev/build-static-deps.sh, else the system's)])],
  [], [enable_static_deps=no])
STATIC_DEPS=no
AS_IF([test "x$enable_static_deps" != xno], [
  AS_IF([test "x$enable_static_deps" = xyes],
    [sg_sd_dirs="$ac_pwd/static-deps/lib `$PKG_CONFIG --variable=libdir libdw`"],
    [AS_CASE([$enable_static_deps], [/*], [], [enable_static_deps="$ac_pwd/$enable_static_deps"])
     sg_sd_dirs="$enable_static_deps/lib"])
  sg_sd_libs=
  sg_sd_hide=
  for sg_sd_name in unwind dw elf bz2 lzma z; do
    AC_MSG_CHECKING([for a static lib$sg_sd_name.a])
    sg_sd_found=
    for sg_sd_dir in $sg_sd_dirs; do
      AS_IF([test -f "$sg_sd_dir/lib$sg_sd_name.a"], [sg_sd_found="$sg_sd_dir/lib$sg_sd_name.a"; break])
    done
    AS_IF([test -n "$sg_sd_found"], [AC_MSG_RESULT([$sg_sd_found])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([--enable-static-deps: lib$sg_sd_name.a not found in $sg_sd_dirs: run sh dev/build-static-deps.sh first (it builds the archives in ./static-deps)])])
    AS_IF([test "$sg_sd_name" = unwind && test -f "$sg_sd_dir/../include/libunwind.h"],
      [UNWIND_CFLAGS="-I`cd "$sg_sd_dir/../include" && pwd`"])
    sg_sd_libs="$sg_sd_libs $sg_sd_found"
    sg_sd_hide="$sg_sd_hide${sg_sd_hide:+:}`basename "$sg_sd_found"`"
  done
  sg_sd_cflags=$CFLAGS; sg_sd_cppflags=$CPPFLAGS; sg_sd_save_libs=$LIBS
  dnl The oldest glibc it can need (src/base/glibc-compat.c): its
  dnl functions' older symbol versions, compiled here, linked first.
  AC_MSG_CHECKING([whether glibc's older symbol versions can be linked to])
  sg_sd_compat="$ac_pwd/packaging/glibc-compat.o"
  sg_sd_pre="-Wl,$sg_sd_compat -Wl,--push-state,--no-as-needed,-l:libpthread.so.0,-l:libdl.so.2,--pop-state"
  AS_MKDIR_P([packaging])
  CFLAGS="$CFLAGS -fPIC -shared"; LIBS="$sg_sd_pre $LIBS"
  AS_IF([$CC $CPPFLAGS $sg_sd_cflags -fPIC -c "$srcdir/src/base/glibc-compat.c" -o "$sg_sd_compat" >&AS_MESSAGE_LOG_FD 2>&1],
    [AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]], [[pthread_once(0, 0);]])],
      [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); sg_sd_pre=])],
    [AC_MSG_RESULT([no]); sg_sd_pre=])
  AC_MSG_CHECKING([whether they link into a shared object with their symbols hidden])
  CPPFLAGS="$CPPFLAGS $UNWIND_CFLAGS $DW_CFLAGS"
  LIBS="-Wl,--exclude-libs,$sg_sd_hide $sg_sd_pre $sg_sd_libs -ldl -pthread $sg_sd_save_libs"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <libunwind.h>
#include <elfutils/libdwfl.h>]], [[void *pc[2]; unw_backtrace(pc, 2); dwfl_begin(0);]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([--enable-static-deps: these archives cannot be linked into libsyncguard.so:$sg_sd_libs (Debian's libunwind.a is not position-independent, its libdw.a and libelf.a use local-exec TLS, its libbz2.a a copy relocation; see config.log): build position-independent ones from the Debian source packages with sh dev/build-static-deps.sh, then configure again])])
  CFLAGS=$sg_sd_cflags; CPPFLAGS=$sg_sd_cppflags; LIBS=$sg_sd_save_libs
  set dummy $sg_sd_libs
  UNWIND_LIBS="-Wl,--exclude-libs,$sg_sd_hide $sg_sd_pre -Wl,$[2]"
  shift 2
  DW_LIBS=
  for sg_sd_a in "$[@]"; do DW_LIBS="$DW_LIBS -Wl,$sg_sd_a"; done
  DW_LIBS="$DW_LIBS -pthread"
  STATIC_DEPS=yes
])
AC_SUBST([STATIC_DEPS])
AM_CONDITIONAL([STATIC_DEPS], [test "$STATIC_DEPS" = yes])
])
