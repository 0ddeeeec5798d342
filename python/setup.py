"""pip's build of the package against an installed libmcdyn (found by
pkg-config) or a build tree (MCDYN_INCLUDE_DIR, MCDYN_LIBRARY_DIR);
docs/python.md. meson builds the same module without pip (python/meson.build)."""
from setuptools import setup

setup(
    name="mcdyn",
    version="0.1.0",
    description="Python bindings of mcdyn: robot dynamics with frictional contact",
    license="BSD-3-Clause",
    packages=["mcdyn"],
    python_requires=">=3.9",
    # cffi and numpy are Debian packages (python3-cffi, python3-numpy); no
    # index is reachable, so they are not listed for pip to fetch.
    cffi_modules=["ffi_build.py:ffi"],
)
