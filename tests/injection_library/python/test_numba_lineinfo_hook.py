"""gpuscope's Python start-up hook (src/injection_library/python/sitecustomize.py) in real
interpreters: each case starts python3 with the PYTHONPATH `gpuscope profile` gives a program
whose source counters it collects (the hook first), and the stand-in numba.cuda that records
the options each kernel was compiled with. Where the real Numba is importable, it is checked
too."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HOOK_DIR = os.environ["GPUSCOPE_PYTHON_HOOK_DIR"]
STAND_IN = os.path.join(HERE, "stand_in")
SHADOWED = os.path.join(HERE, "shadowed")


def run(program, *path, redirect=False, hook=True):
    """Runs `program` with the hook first on PYTHONPATH (unless `hook` is false), then `path`."""
    entries = ((HOOK_DIR,) if hook else ()) + path
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(entries),
                       STAND_IN_REDIRECT="1" if redirect else "0")
    environment.pop("SHADOWED_SITECUSTOMIZE_RAN", None)
    done = subprocess.run([sys.executable, "-c", program], env=environment,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done


KERNELS = """
import json
from numba import cuda
from numba.cuda import jit

@cuda.jit
def bare(x):
    pass

@cuda.jit("void(float32[:])")
def with_signature(x):
    pass

@jit(device=True)
def imported_by_name(x):
    return x

@cuda.jit(lineinfo=False)
def chose_none(x):
    pass

@cuda.jit(debug=True, opt=False)
def for_the_debugger(x):
    pass

print(json.dumps({"redirected": getattr(cuda, "redirected", False), "compiled": cuda.compiled}))
"""


@pytest.mark.parametrize("redirect", [False, True], ids=["built-in target", "numba-cuda"])
def test_numba_kernels_get_a_line_table_unless_they_choose_otherwise(redirect):
    result = json.loads(run(KERNELS, STAND_IN, redirect=redirect).stdout)
    assert result["redirected"] is redirect
    compiled = result["compiled"]
    assert [kernel["lineinfo"] for kernel in compiled] == [True, True, True, False, False]
    assert compiled[4]["debug"] is True


def test_without_the_hook_numba_keeps_its_default():
    compiled = json.loads(run(KERNELS, STAND_IN, hook=False).stdout)["compiled"]
    assert [kernel["lineinfo"] for kernel in compiled] == [False] * 5


def test_a_program_without_numba_imports_nothing_and_says_nothing():
    done = run("import sys; print('numba' in sys.modules)", STAND_IN)
    assert done.stdout.strip() == "False"
    assert done.stderr == ""


def test_the_sitecustomize_it_shadows_still_runs():
    done = run("import os, sitecustomize; "
               "print(os.environ.get('SHADOWED_SITECUSTOMIZE_RAN'), sitecustomize.__file__)",
               STAND_IN, SHADOWED)
    ran, module = done.stdout.split()
    assert ran == "1"
    assert module == os.path.join(SHADOWED, "sitecustomize.py")


def test_numba_imported_before_the_hook_runs_gets_the_default_too():
    # numba.cuda already imported when the hook runs (a sitecustomize of the program's,
    # earlier on the path than the hook's, that imports it): the hook sets the default at once.
    program = ("import numba.cuda as cuda, runpy, os, sys\n"
               f"sys.path.insert(0, {HOOK_DIR!r})\n"
               f"runpy.run_path(os.path.join({HOOK_DIR!r}, 'sitecustomize.py'))\n"
               "cuda.jit(lambda x: None)\n"
               "print(cuda.compiled[-1]['lineinfo'])")
    assert run(program, STAND_IN, hook=False).stdout.strip() == "True"


def test_the_real_numba_compiles_with_lineinfo():
    try:
        import numba.cuda  # noqa: F401
    except Exception as error:  # not installed here, or no CUDA target
        pytest.skip(f"the real numba.cuda is not importable here: {error!r}")
    done = run("from numba import cuda\n"
               "@cuda.jit\n"
               "def kernel(x):\n"
               "    x[0] = 1\n"
               "print(kernel.targetoptions.get('lineinfo'))")
    assert done.stdout.strip() == "True"
