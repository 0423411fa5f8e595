# Stands in for Numba in test_numba_lineinfo_hook.py (the real one is not installed where CI
# runs); only numba.cuda.jit matters to the hook. With STAND_IN_REDIRECT=1 it redirects
# numba.cuda to numba_cuda/numba/cuda as Numba 0.61+ does when numba-cuda is installed: a
# finder of its own, first on sys.meta_path, that asks every finder again with the path
# rewritten (and answers nothing when asked again from there).
import importlib.abc
import os
import sys


class _RedirectCuda(importlib.abc.MetaPathFinder):
    def __init__(self):
        here = os.path.dirname(os.path.abspath(__file__))
        self.numba_path = here
        self.numba_cuda_path = os.path.join(os.path.dirname(here), "numba_cuda", "numba")

    def find_spec(self, name, path, target=None):
        if "numba.cuda" not in name or path is None:
            return None
        if any(self.numba_cuda_path in entry for entry in path):
            return None
        redirected = [entry.replace(self.numba_path, self.numba_cuda_path) for entry in path]
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            spec = find(name, redirected, target)
            if spec is not None:
                return spec
        return None


if os.environ.get("STAND_IN_REDIRECT") == "1":
    sys.meta_path.insert(0, _RedirectCuda())
