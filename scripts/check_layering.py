#!/usr/bin/env python3
"""Checks src/ against its declared layers (cmake/Layers.cmake writes them to <build>/layers.txt).

  check_layering.py LAYERS_TXT ARCHITECTURE_MD SRC_DIR

Fails (exit 1, one line per problem) when
  - ARCHITECTURE.md's folder table and the build's layers differ (a folder missing on either
    side, or other dependencies): the table is what people read, the build is what holds;
  - a file includes a header of a folder its own folder may not depend on, directly or
    through the folders it depends on (header-only use never reaches the linker's checks);
  - a file outside the CUPTI boundary includes a CUPTI or CUDA header or dlopens one of NVIDIA's
    libraries, or one outside the store includes sqlite3.h (the vendor boundaries of
    ARCHITECTURE.md).
"""
import os
import re
import sys

# Headers only one folder (and the folders below it) may include, and which.
VENDOR_BOUNDARIES = [
    (re.compile(r"^(cupti[a-z_]*\.h|cuda\.h|cuda_runtime[a-z_]*\.h|nvperf[a-z_]*\.h)$"), "cupti"),
    (re.compile(r"^sqlite3\.h$"), "store"),
]
# NVIDIA's libraries, which only the CUPTI boundary may load at run time: a dlopen declares the
# functions it looks up itself, so the include check above never sees it.
VENDOR_LIBRARY = re.compile(r'"(lib(?:cuda|cupti|nvperf|nvidia-ml|nvrtc|nvJitLink)[A-Za-z0-9_.+-]*)"')
VENDOR_LIBRARY_BOUNDARY = "cupti"
DLOPEN = re.compile(r"\bdlopen\s*\(")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# Files that may cross a vendor boundary, each with its reason (ARCHITECTURE.md lists them too).
VENDOR_EXCEPTIONS = {}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
TABLE_ROW = re.compile(r"^\|\s*`src/([a-z_/]+)`\s*\|(.*)\|\s*([^|]*)\|\s*$")
BACKTICKED = re.compile(r"`([a-z_/]+)`")


def read_layers(path):
    layers = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            folder, _, deps = line.partition(":")
            layers[folder.strip()] = set(deps.split())
    return layers


def read_table(path):
    """ARCHITECTURE.md's folder table: `src/<folder>` rows, dependencies in backticks in the
    last column (anything else there, such as 'SQLite', is an external library)."""
    table = {}
    with open(path) as f:
        for line in f:
            match = TABLE_ROW.match(line)
            if match:
                table[match.group(1)] = set(BACKTICKED.findall(match.group(3)))
    return table


def closure(layers, folder):
    seen, stack = set(), [folder]
    while stack:
        for dep in layers.get(stack.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen


def layer_of(layers, relative_path):
    """The deepest layer folder that contains the path, or None."""
    parts = relative_path.split("/")[:-1]
    while parts:
        candidate = "/".join(parts)
        if candidate in layers:
            return candidate
        parts.pop()
    return None


def inside(own, boundary):
    return own == boundary or own.startswith(boundary + "/")


def loaded_vendor_libraries(text):
    """The NVIDIA libraries a file names while calling dlopen (comments left out)."""
    code = COMMENT.sub("", text)
    if not DLOPEN.search(code):
        return []
    return sorted(set(VENDOR_LIBRARY.findall(code)))


def check(layers, table, src_dir):
    problems = []
    for folder in sorted(set(layers) | set(table)):
        if folder not in table:
            problems.append(f"ARCHITECTURE.md: no row for src/{folder}, a layer of the build")
        elif folder not in layers:
            problems.append(f"ARCHITECTURE.md: src/{folder} is no layer of the build (src/CMakeLists.txt)")
        elif table[folder] != layers[folder]:
            problems.append(
                f"ARCHITECTURE.md: src/{folder} may depend on {sorted(table[folder])}, "
                f"the build says {sorted(layers[folder])}")

    for root, _, files in os.walk(src_dir):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp", ".cc", ".hpp")):
                continue
            path = os.path.join(root, name)
            relative = os.path.relpath(path, src_dir).replace(os.sep, "/")
            own = layer_of(layers, relative)
            if own is None:
                problems.append(f"src/{relative}: in no layer (declare its folder in src/CMakeLists.txt)")
                continue
            allowed = closure(layers, own) | {own}
            with open(path, errors="replace") as f:
                text = f.read()
            if not inside(own, VENDOR_LIBRARY_BOUNDARY) and relative not in VENDOR_EXCEPTIONS:
                for library in loaded_vendor_libraries(text):
                    problems.append(f"src/{relative}: dlopens {library}, "
                                    f"which only src/{VENDOR_LIBRARY_BOUNDARY} may")
            for bracket, header in INCLUDE.findall(text):
                for pattern, boundary in VENDOR_BOUNDARIES:
                    if pattern.match(header) and not inside(own, boundary) \
                            and relative not in VENDOR_EXCEPTIONS:
                        problems.append(f"src/{relative}: includes <{header}>, which only src/{boundary} may")
                if bracket != '"' or "/" not in header:
                    continue
                target = layer_of(layers, header)
                if target is not None and target not in allowed:
                    problems.append(
                        f"src/{relative}: includes \"{header}\" (src/{target}), "
                        f"but src/{own} may depend only on {sorted(allowed - {own})}")
    return problems


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    layers = read_layers(argv[1])
    table = read_table(argv[2])
    problems = check(layers, table, argv[3])
    for problem in problems:
        print(problem)
    print(f"layering: {len(layers)} layers, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
