"""gpuscope's Python start-up hook: on the traced program's PYTHONPATH only while `gpuscope
profile` collects source counters (the launcher puts it there; docs/jit-line-info.md).

Numba compiles a CUDA kernel with a line table only when it is given `lineinfo=True`, a
keyword default that no environment variable reaches, so the source counters of a Numba kernel
would name no line of the program. This makes `lineinfo=True` the default of `numba.cuda.jit`
once `numba.cuda` is imported: a kernel that passes `lineinfo` itself keeps its choice, and one
compiled with `debug=True` (which has its own line table) is left as it is. The code generated
is the same; only the line table is added.

It then runs the `sitecustomize` it shadows, if there is one, so that the program starts as it
would without gpuscope. Anything that goes wrong here is said in one line and the program runs
on without the default.
"""
import functools
import importlib.abc
import os
import sys
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))
_MODULE = "numba.cuda"


def _say(message):
    sys.stderr.write(f"=={os.getpid()}== gpuscope: {message}\n")


def _default_lineinfo(module):
    jit = getattr(module, "jit", None)
    if jit is None or getattr(jit, "__gpuscope_lineinfo__", False):
        return

    @functools.wraps(jit)
    def jit_with_lineinfo(*args, **kwargs):
        if not kwargs.get("debug"):
            kwargs.setdefault("lineinfo", True)
        return jit(*args, **kwargs)

    jit_with_lineinfo.__gpuscope_lineinfo__ = True
    module.jit = jit_with_lineinfo


class _NumbaCudaFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when numba.cuda is imported, it asks the other finders for the
    module and has its loader, once the module has run, set the default.

    Numba 0.61+ puts a finder of its own first on sys.meta_path that redirects numba.cuda to
    numba-cuda's copy by asking every finder again, this one included, with another path: so
    this one sees the import wherever it stands, and answers nothing while it is asking."""

    def __init__(self):
        self._asking = threading.local()

    def find_spec(self, name, path, target=None):
        if name != _MODULE or getattr(self._asking, "active", False):
            return None
        self._asking.active = True
        try:
            spec = self._spec_from_the_others(name, path, target)
        finally:
            self._asking.active = False
        if spec is None:
            return None
        loader = spec.loader
        run = getattr(loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module):
            run(module)
            try:
                _default_lineinfo(module)
                # A package that puts another module in its place (numba-cuda's redirect).
                if sys.modules.get(_MODULE) not in (None, module):
                    _default_lineinfo(sys.modules[_MODULE])
            except Exception as error:  # never the program's failure
                _say(f"cannot make lineinfo=True the default of numba.cuda.jit ({error!r}); "
                     "Numba kernels get source lines only with @cuda.jit(lineinfo=True)")

        loader.exec_module = exec_module  # this spec's own loader object
        return spec

    def _spec_from_the_others(self, name, path, target):
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                return spec
        return None


def _run_shadowed_sitecustomize():
    # Ours leaves the path, so that the import finds the next one, as Python's site would have.
    sys.path[:] = [entry for entry in sys.path
                   if not (isinstance(entry, str) and os.path.abspath(entry or ".") == _HERE)]
    ours = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401  (the program's own, or its environment's)
    except ImportError as error:
        if error.name != "sitecustomize":
            raise
        if ours is not None:
            sys.modules["sitecustomize"] = ours


try:
    if _MODULE in sys.modules:
        _default_lineinfo(sys.modules[_MODULE])
    else:
        sys.meta_path.insert(0, _NumbaCudaFinder())
except Exception as error:  # never the program's failure
    _say(f"cannot watch for numba.cuda ({error!r}); "
         "Numba kernels get source lines only with @cuda.jit(lineinfo=True)")
_run_shadowed_sitecustomize()
