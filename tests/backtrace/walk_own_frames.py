# Run by python_interpreter_frames_test: walks its own frames through gpuscope's walker, once
# with the GIL released (ctypes.CDLL) and once with it held (ctypes.PyDLL), from the same
# lines, and prints each walk followed by "---".
import ctypes
import sys

probe = sys.argv[1]
without_gil = ctypes.CDLL(probe)
with_gil = ctypes.PyDLL(probe)


def launch(library):
    text = ctypes.create_string_buffer(1 << 16)
    library.gpuscope_probe_walk(text, len(text))  # the line each walk must name
    return text.value.decode()


class Modèle:  # a name that is not ASCII: its text is read as CPython stores it
    def step(self, library):
        return launch(library)


def train(library):
    return [Modèle().step(library) for _ in range(1)][0]


for library in (without_gil, with_gil):  # one line, so that both walks are the same
    print(train(library), end="---\n")
