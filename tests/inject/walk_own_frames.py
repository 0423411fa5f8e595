# Run by python_interpreter_frames_test: walks its own frames through gpuscope's walker from
# the same lines three times: reading CPython's structures with the GIL released (ctypes.CDLL,
# as PyTorch launches), through the C API with the GIL held (ctypes.PyDLL), and reading the
# structures with the GIL held; prints each walk followed by "---".
import ctypes
import sys

probe = sys.argv[1]
without_gil = ctypes.CDLL(probe)
with_gil = ctypes.PyDLL(probe)


def launch(library, api_only):
    text = ctypes.create_string_buffer(1 << 16)
    library.gpuscope_probe_walk(text, len(text), api_only)  # the line each walk must name
    return text.value.decode()


class Modèle:  # a name that is not ASCII: its text is read as CPython stores it
    def step(self, library, api_only):
        return launch(library, api_only)


def steps(library, api_only):
    # A generator's frame belongs to the generator object, not to the thread's stack.
    yield Modèle().step(library, api_only)


def through_c(library, api_only):
    # map() is C code calling back into Python: CPython 3.12+ puts a shim frame of its own
    # between the two, which is no frame of the program.
    return next(map(lambda generator: next(generator), [steps(library, api_only)]))


def train(library, api_only):
    return [through_c(library, api_only) for _ in range(1)][0]


for library, api_only in ((without_gil, 0), (with_gil, 1), (with_gil, 0)):  # one line for all
    print(train(library, api_only), end="---\n")
