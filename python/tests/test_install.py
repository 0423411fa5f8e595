"""`pip install ./python` makes an importable package: into a venv made by this test, offline,
then imported from the venv in a directory outside the source tree, without PYTHONPATH.

The venv is made by the Python running the tests (Debian's python3 under CTest) with
--system-site-packages, so that numpy and pandas come from Debian (there is no network to get
them from): `pip install --no-deps --no-build-isolation --no-index` builds with the
setuptools and wheel that Python has. It is made --without-pip: pip is Debian's too, seen
through the system site-packages, so the venv module's ensurepip (Debian's python3-venv) is
not needed. Each tool the install needs is checked first; a missing one fails the test,
naming the Debian package, instead of skipping it.
"""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import gpuscope

SOURCE = os.path.join(os.environ.get("GPUSCOPE_SOURCE_DIR", ""), "python")
REPORTS = os.path.join(os.environ.get("GPUSCOPE_TEST_DATA_DIR", ""), "reports")

# (import, what it is for, the Debian package that brings it)
BUILD_TOOLS = [
    ("pip", "pip install", "python3-pip"),
    ("setuptools.build_meta", "the build backend of python/pyproject.toml", "python3-setuptools"),
]
# setuptools before 70.1 (Debian 12 has 66) builds wheels with the wheel package's bdist_wheel.
WHEEL = ("wheel", "setuptools' wheel builds before setuptools 70.1", "python3-wheel")

SMOKE = """
import importlib.metadata, json, sys
import gpuscope
with gpuscope.open(sys.argv[1]) as trace, gpuscope.open(sys.argv[2]) as profile:
    print(json.dumps({
        "file": gpuscope.__file__,
        "version": gpuscope.__version__,
        "installed_version": importlib.metadata.version("gpuscope"),
        "requires": importlib.metadata.requires("gpuscope"),
        "repr": repr(trace),
        "kernels": list(trace.kernels()["demangled"]),
        "metrics": len(profile.table("kernel_metrics")),
    }))
"""


def run(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=240, **kwargs)
    assert done.returncode == 0, (f"{' '.join(map(str, command))} failed:\n"
                                  f"{done.stdout}\n{done.stderr}")
    return done.stdout


def clean_environment():
    """No PYTHONPATH (the package must come from the venv), no user pip configuration."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "PYTHONHOME") and not k.startswith("PIP_")}
    environment.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
                       PYTHONNOUSERSITE="1")
    return environment


def check_build_tools(python, environment):
    def missing(tools):
        # One interpreter per import: pip and setuptools each patch distutils on import.
        return [f"{module} ({purpose}: Debian's {package})" for module, purpose, package in tools
                if subprocess.run([str(python), "-c", f"import {module}"], env=environment,
                                  capture_output=True).returncode != 0]

    def fail(what):
        pytest.fail(f"{sys.executable} cannot install the package offline: {what}. Install it "
                    "(scripts/setup.sh --test-deps).")

    absent = missing(BUILD_TOOLS)
    if absent:
        fail(f"missing {'; '.join(absent)}")
    version = run([python, "-c", "import setuptools; print(setuptools.__version__)"],
                  env=environment).strip()
    major_minor = tuple(int(part) for part in version.split(".")[:2])
    if major_minor < (61, 0):
        fail(f"setuptools {version} cannot read pyproject.toml's [project] (61 or newer can)")
    if major_minor < (70, 1) and missing([WHEEL]):
        fail(f"missing {missing([WHEEL])[0]}")


def test_pip_installs_the_package_into_a_venv_that_imports_it(tmp_path):
    venv = os.environ.get("GPUSCOPE_PYTHON_VENV") or str(tmp_path / "venv")
    environment = clean_environment()
    run([sys.executable, "-m", "venv", "--clear", "--system-site-packages", "--without-pip",
         venv], env=environment)
    python = os.path.join(venv, "bin", "python")
    check_build_tools(python, environment)
    # pip builds in the directory it is given (gpuscope.egg-info, build/): a copy, so that
    # the source tree stays as it is.
    source = tmp_path / "source"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "tests", ".pytest_cache"))
    run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
         source], env=environment, cwd=tmp_path)

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    smoke = json.loads(run([python, "-c", SMOKE, os.path.join(REPORTS, "h100_add.sqlite"),
                            os.path.join(REPORTS, "h100_metrics_full.sqlite")],
                           env=environment, cwd=outside))

    assert smoke["file"].startswith(os.path.realpath(venv)) or smoke["file"].startswith(venv)
    assert smoke["version"] == smoke["installed_version"] == gpuscope.__version__
    # Spaces, parentheses and quotes differ between setuptools versions' metadata.
    assert sorted(re.sub(r"[\s()'\"]", "", r) for r in smoke["requires"]) == [
        "dask[dataframe];extra==dask", "distributed;extra==dask", "numpy>=1.21", "pandas>=1.4"]
    assert "trace report, 1 kernel, 124 API calls" in smoke["repr"]
    assert smoke["kernels"] == ["add(int, int, int*)"]
    assert smoke["metrics"] == 2436  # event_tables.json and the profile tables came along
