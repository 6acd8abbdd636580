"""The native core of move generation (engine/_native.c), built by the normal install.

pyproject.toml holds everything else; this file only declares the C extension. Without a
working C compiler (or the Python headers) the build warns and goes on: the package installs
without ``engine._native`` and the engine runs pure Python (README, "The engine").
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compile into a warning."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (PlatformError and friends)
            _warn(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler or the headers failed
            _warn(exc)


def _warn(exc: BaseException) -> None:
    line = " ".join(str(exc).split()) or type(exc).__name__
    print(
        "WARNING: the native move generator (engine/_native.c) was not built "
        f"({line}); the engine will run pure Python.",
        file=sys.stderr,
    )


setup(
    ext_modules=[
        Extension(
            "engine._native",
            sources=["engine/_native.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
