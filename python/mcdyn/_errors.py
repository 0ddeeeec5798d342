"""The exception raised for every failing mcdyn call."""
import enum

from ._mcdyn_cffi import ffi, lib


class Status(enum.IntEnum):
    """The C library's mcd_status codes (include/mcdyn/status.h)."""
    OK = lib.MCD_OK
    ERR_ARG = lib.MCD_ERR_ARG
    ERR_NOMEM = lib.MCD_ERR_NOMEM
    ERR_MODEL = lib.MCD_ERR_MODEL
    ERR_NONFINITE = lib.MCD_ERR_NONFINITE
    ERR_IO = lib.MCD_ERR_IO
    ERR_PARSE = lib.MCD_ERR_PARSE
    ERR_UNSUPPORTED = lib.MCD_ERR_UNSUPPORTED
    ERR_SINGULAR = lib.MCD_ERR_SINGULAR
    ERR_NOT_CONVERGED = lib.MCD_ERR_NOT_CONVERGED
    ERR_CAPACITY = lib.MCD_ERR_CAPACITY
    ERR_INFEASIBLE = lib.MCD_ERR_INFEASIBLE


class Error(Exception):
    """A failed mcdyn call: ``status`` is the C status (:class:`Status`),
    ``message`` the C library's message (or the binding's, for arguments
    refused before the call, e.g. a wrong array shape: status ERR_ARG)."""

    def __init__(self, status, message):
        self.status = Status(status)
        self.message = message
        super().__init__(f"{message} [{ffi.string(lib.mcd_status_str(status)).decode()}]")


def check(status, message_source):
    """Raises Error when status is not MCD_OK; message_source is an
    mcd_error* or a callable returning the message (only called on failure)."""
    if status != lib.MCD_OK:
        raise Error(status, error_text(message_source))


def error_text(source):
    """The message of an mcd_error* or of a callable returning a C string."""
    text = source.msg if isinstance(source, ffi.CData) else source()
    return ffi.string(text).decode("utf-8", "replace")


def fail_arg(message):
    """An Error of status ERR_ARG for arguments refused by the binding."""
    return Error(lib.MCD_ERR_ARG, message)
