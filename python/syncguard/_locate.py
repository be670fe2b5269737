# SPDX-License-Identifier: Apache-2.0
"""Where the installed package keeps libsyncguard.so and the launcher."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class NotBundled(Exception):
    """The package lacks a file make wheel puts in it; str() names it."""


def _bundled(*parts):
    path = os.path.join(_HERE, *parts)
    if not os.path.isfile(path):
        raise NotBundled(
            "%s is missing: this syncguard package was not built by `make wheel`" % path
        )
    return path


def library_path():
    """The absolute path of the bundled libsyncguard.so (for LD_PRELOAD)."""
    return _bundled("lib", "libsyncguard.so")


def launcher_path():
    """The bundled launcher, the shell script syncguard(1) documents."""
    return _bundled("libexec", "syncguard")
