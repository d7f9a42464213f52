"""Kernels without reference counting: the option for small functions called per boid.

numba counts a reference up and down, out of line and with an atomic operation, for every
array a compiled function receives and hands on to another call: its pass that removes
useless pairs gives up at a call. A helper called for every boid with a few arrays paid
more for the counting than for its work (a function that passes three arrays on: 36 ns a
call against 9 without; the steering kernel at 500 boids, 177 → 150 µs on one thread).

A function compiled by `njit_no_refcount` does no counting: the arrays it is given are
borrowed from its caller, which holds them for the call. So such a function must neither
make an array (np.empty, a copy) nor return one, an array view or a tuple holding one, nor
call a function that does: its caller would count a reference that was never taken (a
view freed while in use), and an array made inside would never be freed. Scalars and
tuples of scalars only, out; writing into the arrays it is given is fine.

The option is numba's internal ``_nrt`` target option (numba's own string helpers and
tests compile with it); a numba without it gets the counting back: the same results, only
slower.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numba
from numba.core.cpu import CPUTargetOptions

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

_F = TypeVar("_F", bound=Callable[..., object])
_NO_REFCOUNT: dict[str, bool] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


def njit_no_refcount(**options: Any) -> Callable[[_F], "Dispatcher[_F]"]:
    """``numba.njit(**options)`` with reference counting off (see the module's docstring)."""
    njit: Any = numba.njit  # numba's type stubs list its public options only
    return cast(Callable[[_F], "Dispatcher[_F]"], njit(**options, **_NO_REFCOUNT))
