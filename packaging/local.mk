# SPDX-License-Identifier: Apache-2.0
# Packages (included from the top Makefile.am): `make deb` (the
# distribution-style build), `make wheel` (configure --enable-static-deps:
# the self-contained library), and the tests that install each into a
# clean place and run the bundled racy example through it on the CPU
# emulation of the driver (`make check-packages`).
PKG_TRIPLET = `$(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu`
PKG_LIB = $(abs_top_builddir)/src/.libs/libsyncguard.so
PKG_ENV = SRCDIR=$(abs_top_srcdir) BUILDDIR=$(abs_top_builddir) VERSION=$(PACKAGE_VERSION) \
	PYTHON=$(PYTHON3) LIB=$(PKG_LIB) TRIPLET=$(PKG_TRIPLET) STATIC_DEPS=$(STATIC_DEPS)
DEB_FILE = syncguard_$(PACKAGE_VERSION)_amd64.deb

deb: all
	@if test "$(STATIC_DEPS)" = yes; then \
	  echo "make deb: this build is --enable-static-deps; the .deb is the distribution-style build (Debian forbids embedded libraries): configure without it" >&2; exit 1; fi
	rm -rf _deb
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR=$(abs_top_builddir)/_deb/root prefix=/usr exec_prefix=/usr \
	    bindir=/usr/bin libdir=/usr/lib/$(PKG_TRIPLET)/syncguard mandir=/usr/share/man >/dev/null
	$(PKG_ENV) STAGE=$(abs_top_builddir)/_deb/root $(SHELL) $(srcdir)/packaging/deb/make-deb.sh
wheel: all
	$(PKG_ENV) $(SHELL) $(srcdir)/packaging/wheel/make-wheel.sh
.PHONY: deb wheel

# The package tests (packaging/tests/run.sh): they install what this build
# can make into a clean place and run examples/racy, built against the
# emulator, through the installed launcher. Not part of `make check`: CI
# runs `make check-packages` after it, in a default and a static-deps build.
PKG_TESTS = t-static-deps.sh t-old-glibc.sh t-deb.sh t-deb-lintian.sh t-deb-apt.sh t-wheel.sh
check-packages: all
	$(MAKE) $(AM_MAKEFLAGS) -C tests emu/libcuda.la
	@if test "$(STATIC_DEPS)" = yes; then \
	  for py in $(PYTHON3) /usr/bin/python3; do \
	    if $$py -c 'import build, setuptools, wheel' 2>/dev/null; then $(MAKE) $(AM_MAKEFLAGS) wheel; break; fi; done; \
	elif command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null; then \
	  $(MAKE) $(AM_MAKEFLAGS) deb; fi
	@$(PKG_ENV) CUDA_DIR=$(CUDA_DIR) SG_EMU_LIBDIR=$(abs_top_builddir)/tests/emu/.libs \
	  DEB=$(abs_top_builddir)/$(DEB_FILE) $(SHELL) $(srcdir)/packaging/tests/run.sh $(PKG_TESTS)
.PHONY: check-packages

EXTRA_DIST += LICENSE packaging/static-deps.m4 packaging/glibc-needs.sh packaging/deb/make-deb.sh \
	packaging/wheel/make-wheel.sh packaging/tests/run.sh packaging/tests/lib.sh \
	packaging/tests/t-static-deps.sh packaging/tests/t-old-glibc.sh packaging/tests/t-deb.sh packaging/tests/t-deb-lintian.sh \
	packaging/tests/t-deb-apt.sh packaging/tests/t-wheel.sh dev/build-static-deps.sh \
	python/pyproject.toml python/syncguard/__init__.py python/syncguard/__main__.py \
	python/syncguard/_locate.py python/syncguard/report.py python/syncguard/pytest_plugin.py

clean-local:
	rm -rf _deb _wheel dist syncguard_*.deb packaging-tests
# configure compiled it from src/base/glibc-compat.c (--enable-static-deps).
distclean-local:
	rm -f packaging/glibc-compat.o
