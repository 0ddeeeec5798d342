"""Models and their workspaces: the dynamics algorithms of
include/mcdyn/dynamics.h and osc.h on numpy arrays."""
import os

import numpy as np

from ._arrays import NULL, as_input, as_output
from ._errors import check, fail_arg
from ._mcdyn_cffi import ffi, lib

_REFERENCES = {"world": lib.MCD_REF_WORLD, "local": lib.MCD_REF_LOCAL}
_OSC_ROWS = {"spatial": (lib.MCD_OSC_SPATIAL, 6), "linear": (lib.MCD_OSC_LINEAR, 3)}


def _names(array, n):
    return tuple(ffi.string(array[i]).decode() for i in range(n))


class Model:
    """An immutable tree of rigid bodies (``mcd_model``): sizes, names and
    gravity. Made by :meth:`from_urdf` or taken from a scenario
    (:attr:`mcdyn.Scenario.model`).

    Attributes: ``nq``, ``nv``, ``nbody``, ``name``, ``body_names``,
    ``joint_names``, ``frame_names``, ``node_names``, ``gravity``,
    ``total_mass``."""

    def __init__(self, ptr, owner=None):
        """Wraps an mcd_model*; owner keeps the object that frees it alive
        (None: this Model frees it)."""
        self._ptr = ffi.gc(ptr, lib.mcd_model_free) if owner is None else ptr
        self._owner = owner
        self._has_data = False

    @classmethod
    def from_urdf(cls, path, floating_base=False, package_paths=(), balance_inertia=False,
                  ignore_mimic=False):
        """Loads a URDF file (``mcd_urdf_load_file``). floating_base attaches
        the root link by a free joint; package_paths are searched for
        package:// meshes; balance_inertia and ignore_mimic as in urdf.h."""
        opt = ffi.new("mcd_urdf_options *", lib.mcd_urdf_default_options())
        opt.floating_base = int(bool(floating_base))
        opt.balance_inertia = int(bool(balance_inertia))
        opt.ignore_mimic = int(bool(ignore_mimic))
        keep = [ffi.new("char[]", os.fsencode(p)) for p in package_paths]
        paths = ffi.new("const char *[]", keep) if keep else NULL
        opt.package_paths = paths
        opt.npackage_paths = len(keep)
        out = ffi.new("mcd_model **")
        err = ffi.new("mcd_error *")
        check(lib.mcd_urdf_load_file(os.fsencode(path), opt, out, err), err)
        return cls(out[0])

    @property
    def nq(self):
        return self._ptr.nq

    @property
    def nv(self):
        return self._ptr.nv

    @property
    def nbody(self):
        return self._ptr.nbody

    @property
    def name(self):
        return ffi.string(self._ptr.name).decode() if self._ptr.name != NULL else ""

    @property
    def body_names(self):
        return _names(self._ptr.body_name, self._ptr.nbody)

    @property
    def joint_names(self):
        return _names(self._ptr.joint_name, self._ptr.nbody)

    @property
    def frame_names(self):
        return _names(self._ptr.frame_name, self._ptr.nframe)

    @property
    def node_names(self):
        return _names(self._ptr.node_name, self._ptr.nnode)

    @property
    def gravity(self):
        return np.array(list(self._ptr.gravity))

    @property
    def total_mass(self):
        return self._ptr.total_mass

    def joint_qadr(self, joint):
        """First index in q of a joint (by name or body index)."""
        return self._ptr.body[self.joint_index(joint)].qadr

    def joint_vadr(self, joint):
        """First index in qd of a joint (by name or body index)."""
        return self._ptr.body[self.joint_index(joint)].vadr

    def _index(self, fn, kind, name, count):
        if isinstance(name, (int, np.integer)):
            if not 0 <= name < count:
                raise fail_arg(f"{kind} index {name} out of range [0, {count})")
            return int(name)
        i = fn(self._ptr, name.encode())
        if i < 0:
            raise fail_arg(f"no {kind} named '{name}' in model '{self.name}'")
        return i

    def body_index(self, name):
        """Index of a moving body by name (``mcd_model_body_index``)."""
        return self._index(lib.mcd_model_body_index, "body", name, self._ptr.nbody)

    def joint_index(self, name):
        """Index of a joint (= its body) by name (``mcd_model_joint_index``)."""
        return self._index(lib.mcd_model_joint_index, "joint", name, self._ptr.nbody)

    def frame_index(self, name):
        """Index of a frame (any URDF link) by name."""
        return self._index(lib.mcd_model_frame_index, "frame", name, self._ptr.nframe)

    def node_index(self, name):
        """Index of a node by name."""
        return self._index(lib.mcd_model_node_index, "node", name, self._ptr.nnode)

    def neutral(self):
        """The neutral configuration q (``mcd_model_neutral``)."""
        q, qp = as_output(None, (self.nq,), "q")
        check(lib.mcd_model_neutral(self._ptr, qp), lambda: b"mcd_model_neutral failed")
        return q

    def add_node(self, name, body, position=(0.0, 0.0, 0.0), rotation=None):
        """Adds a node (a frame for Jacobians and compliances) on a body at
        position (body frame) with a 3x3 rotation (default identity); only
        before any Data is made for this model. Returns its index."""
        if self._has_data:
            raise fail_arg("add_node: nodes must be added before any Data is made")
        pose = ffi.new("mcd_pose *")
        p, _ = as_input(position, (3,), "position")
        R, _ = as_input(np.eye(3) if rotation is None else rotation, (3, 3), "rotation")
        pose.p = list(p)
        pose.R = list(R.ravel())
        index = ffi.new("int *")
        err = ffi.new("mcd_error *")
        check(lib.mcd_model_add_node(self._ptr, name.encode(), self.body_index(body), pose,
                                     index, err), err)
        return index[0]

    def integrate(self, q, qd, dt, out=None):
        """q (+) qd dt (``mcd_integrate``): quaternions by the exponential map."""
        _, qp = as_input(q, (self.nq,), "q")
        _, vp = as_input(qd, (self.nv,), "qd")
        out, op = as_output(out, (self.nq,), "out")
        check(lib.mcd_integrate(self._ptr, qp, vp, float(dt), op),
              lambda: b"mcd_integrate: non-finite input or non-unit quaternion")
        return out

    def data(self):
        """A new workspace for this model (:class:`Data`)."""
        return Data(self)


class Data:
    """A workspace for one model (``mcd_data``); the algorithms of
    dynamics.h as methods with the C names. Inputs are array-likes of the
    documented shapes (float64, C-contiguous arrays are used without a copy);
    outputs are new arrays, or the ``out`` array given (written in place).
    Matrices are row-major numpy arrays. Every failure raises
    :class:`mcdyn.Error` with the C message."""

    def __init__(self, model):
        out = ffi.new("mcd_data **")
        err = ffi.new("mcd_error *")
        check(lib.mcd_data_create(model._ptr, out, err), err)
        self.model = model
        model._has_data = True
        self._m = model._ptr
        self._ptr = ffi.gc(out[0], lib.mcd_data_free)
        self._nq, self._nv = model.nq, model.nv

    def _error(self):
        return lib.mcd_data_error(self._ptr)

    def _q(self, q):
        return as_input(q, (self._nq,), "q")[1]

    def _v(self, v, name):
        return as_input(v, (self._nv,), name)[1]

    def _f_ext(self, f_ext):
        if f_ext is None:
            return NULL
        return as_input(f_ext, (self.model.nbody, 6), "f_ext")[1]

    def forward_dynamics(self, q, qd, tau, f_ext=None, out=None):
        """qdd = M⁻¹(τ − C + Jᵀf_ext) in O(N) (``mcd_forward_dynamics``);
        f_ext (nbody x 6, [n; F] per body about the world origin) may be None.
        Leaves the factorization of M(q) for :meth:`minv_solve`."""
        qp, vp, tp = self._q(q), self._v(qd, "qd"), self._v(tau, "tau")
        out, op = as_output(out, (self._nv,), "out")
        check(lib.mcd_forward_dynamics(self._m, self._ptr, qp, vp, tp, self._f_ext(f_ext), op),
              self._error)
        return out

    def inverse_dynamics(self, q, qd, qdd, f_ext=None, out=None):
        """τ = M qdd + C − Jᵀf_ext by Newton–Euler (``mcd_inverse_dynamics``)."""
        qp, vp, ap = self._q(q), self._v(qd, "qd"), self._v(qdd, "qdd")
        out, op = as_output(out, (self._nv,), "out")
        check(lib.mcd_inverse_dynamics(self._m, self._ptr, qp, vp, ap, self._f_ext(f_ext), op),
              self._error)
        return out

    def mass_matrix(self, q, out=None):
        """M(q), nv x nv (``mcd_mass_matrix``, composite rigid bodies)."""
        out, op = as_output(out, (self._nv, self._nv), "out")
        check(lib.mcd_mass_matrix(self._m, self._ptr, self._q(q), op), self._error)
        return out

    def bias_forces(self, q, qd, out=None):
        """C(q, qd): Coriolis, centrifugal and gravity (``mcd_bias_forces``)."""
        out, op = as_output(out, (self._nv,), "out")
        check(lib.mcd_bias_forces(self._m, self._ptr, self._q(q), self._v(qd, "qd"), op),
              self._error)
        return out

    def gravity_forces(self, q, out=None):
        """G(q) (``mcd_gravity_forces``)."""
        out, op = as_output(out, (self._nv,), "out")
        check(lib.mcd_gravity_forces(self._m, self._ptr, self._q(q), op), self._error)
        return out

    def minv_factor(self, q):
        """Factorizes M(q) in O(N) without forming it (``mcd_minv_factor``)."""
        check(lib.mcd_minv_factor(self._m, self._ptr, self._q(q)), self._error)

    def minv_solve(self, x, out=None):
        """y = M⁻¹x with the factorization left by :meth:`minv_factor`,
        :meth:`forward_dynamics` or :meth:`node_compliance` (any other call
        that computes kinematics clears it) (``mcd_minv_solve``); x is nv,
        or nv x k (k right-hand sides, one solve per column)."""
        x = np.ascontiguousarray(x, dtype=np.float64)
        if x.ndim == 2 and x.shape[0] == self._nv:
            cols = np.ascontiguousarray(x.T)
            y = np.empty_like(cols)
            for j in range(cols.shape[0]):
                self.minv_solve(cols[j], out=y[j])
            if out is None:
                return np.ascontiguousarray(y.T)
            out[...] = y.T
            return out
        _, xp = as_input(x, (self._nv,), "x")
        out, op = as_output(out, (self._nv,), "out")
        check(lib.mcd_minv_solve(self._m, self._ptr, xp, op), self._error)
        return out

    def node_pose(self, q, node):
        """World pose of a node (index or name): (R 3x3, p 3)."""
        pose = ffi.new("mcd_pose *")
        check(lib.mcd_node_pose(self._m, self._ptr, self._q(q), self.model.node_index(node),
                                pose), self._error)
        return np.array(list(pose.R)).reshape(3, 3), np.array(list(pose.p))

    def node_jacobian(self, q, node, ref="world", out=None):
        """Node Jacobian (6 x nv; rows [ω; v] of the node, world-aligned or
        local axes) (``mcd_node_jacobian``)."""
        out, op = as_output(out, (6, self._nv), "out")
        check(lib.mcd_node_jacobian(self._m, self._ptr, self._q(q), self.model.node_index(node),
                                    _reference(ref), op), self._error)
        return out

    def node_bias_acceleration(self, q, qd, node, ref="world", out=None):
        """J̇q̇ of a node: its spatial acceleration [ω̇; a] at q̈ = 0, velocity
        products only, no gravity, so the node accelerates with J q̈ + this
        (``mcd_node_bias_acceleration``)."""
        out, op = as_output(out, (6,), "out")
        check(lib.mcd_node_bias_acceleration(self._m, self._ptr, self._q(q), self._v(qd, "qd"),
                                             self.model.node_index(node), _reference(ref), op),
              self._error)
        return out

    def point_jacobian(self, q, body, point, ref="world", out=None):
        """Jacobian (6 x nv) of a point fixed on a body, point in body
        coordinates (``mcd_point_jacobian``)."""
        _, pp = as_input(point, (3,), "point")
        out, op = as_output(out, (6, self._nv), "out")
        check(lib.mcd_point_jacobian(self._m, self._ptr, self._q(q), self.model.body_index(body),
                                     pp, _reference(ref), op), self._error)
        return out

    def node_compliance(self, q, nodes, rows="spatial", out=None):
        """Operational-space compliance Λ = J M⁻¹ Jᵀ of K nodes (rK x rK, r =
        6 for rows="spatial", 3 for "linear"), in O(N) + O(K²)
        (``mcd_node_compliance``). Its inverse is the operational-space
        inertia."""
        kind, r = _OSC_ROWS.get(rows, (None, 0))
        if kind is None:
            raise fail_arg(f"rows must be 'spatial' or 'linear', not {rows!r}")
        idx = np.array([self.model.node_index(n) for n in nodes], dtype=np.intc)
        out, op = as_output(out, (r * len(idx), r * len(idx)), "out")
        check(lib.mcd_node_compliance(self._m, self._ptr, self._q(q), len(idx),
                                      ffi.from_buffer("int[]", idx), kind, op), self._error)
        return out

    def node_osc_inertia(self, q, nodes, rows="spatial", out=None):
        """Operational-space inertia (J M⁻¹ Jᵀ)⁻¹ of K nodes, Khatib's Λ, the
        inverse of :meth:`node_compliance` (``mcd_node_osc_inertia``)."""
        kind, r = _OSC_ROWS.get(rows, (None, 0))
        if kind is None:
            raise fail_arg(f"rows must be 'spatial' or 'linear', not {rows!r}")
        idx = np.array([self.model.node_index(n) for n in nodes], dtype=np.intc)
        out, op = as_output(out, (r * len(idx), r * len(idx)), "out")
        check(lib.mcd_node_osc_inertia(self._m, self._ptr, self._q(q), len(idx),
                                       ffi.from_buffer("int[]", idx), kind, op), self._error)
        return out

    def energy(self, q, qd):
        """(kinetic, potential) energy (``mcd_energy``)."""
        ke = ffi.new("double *")
        pe = ffi.new("double *")
        check(lib.mcd_energy(self._m, self._ptr, self._q(q), self._v(qd, "qd"), ke, pe),
              self._error)
        return ke[0], pe[0]

    def center_of_mass(self, q):
        """World centre of mass of the model (``mcd_center_of_mass``)."""
        out, op = as_output(None, (3,), "out")
        check(lib.mcd_center_of_mass(self._m, self._ptr, self._q(q), op), self._error)
        return out


def _reference(ref):
    try:
        return _REFERENCES[ref]
    except (KeyError, TypeError):
        raise fail_arg(f"ref must be 'world' or 'local', not {ref!r}") from None


__all__ = ["Model", "Data"]
