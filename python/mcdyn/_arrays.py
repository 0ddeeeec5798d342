"""numpy arrays in and out of the C library without copies when possible."""
import numpy as np

from ._errors import fail_arg
from ._mcdyn_cffi import ffi

NULL = ffi.NULL


def as_input(x, shape, name):
    """x as a C-contiguous float64 array of the given shape (no copy when x
    already is one) and a double* into it. Raises Error (ERR_ARG) otherwise."""
    a = np.ascontiguousarray(x, dtype=np.float64)
    if a.shape != shape:
        raise fail_arg(f"{name} has shape {a.shape}, expected {shape}")
    return a, ffi.from_buffer("double[]", a)


def as_output(out, shape, name):
    """A new float64 array of the given shape, or out when it is a writable
    C-contiguous float64 array of that shape (the C code writes into it)."""
    if out is None:
        out = np.empty(shape)
    elif (not isinstance(out, np.ndarray) or out.dtype != np.float64 or out.shape != shape
          or not out.flags.c_contiguous or not out.flags.writeable):
        raise fail_arg(f"{name} must be a writable C-contiguous float64 array of shape {shape}")
    return out, ffi.from_buffer("double[]", out, require_writable=True)


def view(ptr, n):
    """A read-only numpy view of n doubles at the C pointer ptr."""
    a = np.frombuffer(ffi.buffer(ptr, 8 * n), dtype=np.float64)
    a.flags.writeable = False
    return a


def writable_view(ptr, n):
    """A writable numpy view of n doubles at the C pointer ptr."""
    return np.frombuffer(ffi.buffer(ptr, 8 * n), dtype=np.float64)
