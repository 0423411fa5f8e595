"""The package's version: the project's (CMakeLists.txt, project(gpuscope VERSION ...)).

pyproject.toml reads it from here (setuptools' static `attr`), and the test
Python.ProfileTables fails when it differs from CMakeLists.txt or `gpuscope --version`, so the
package and the tool it reads the reports of cannot be released under two numbers.
"""

__version__ = "0.1.0"
