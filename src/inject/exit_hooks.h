// Running the end of the session when the process ends normally: C's atexit, and, inside a
// Python interpreter, Python's own exit as well.
//
// Why Python needs more: on an uncaught KeyboardInterrupt (Ctrl-C), CPython 3.8+ finalises
// the interpreter, resets SIGINT to SIG_DFL and kills itself with it, so that its parent
// sees "killed by SIGINT". C atexit handlers never run then, and without a second
// registration the session's end (final forced flush, dropped-record count, held API
// records, open NVTX ranges, closing the report) would be lost. Py_AtExit hooks run at the
// very end of Py_FinalizeEx, on both that path and a normal exit, after Python's modules
// were torn down; on a normal exit the C atexit handler runs afterwards, so the hook must
// be idempotent (Session::End is).
//
// What this relies on:
// - Py_AtExit is found with dlsym(RTLD_DEFAULT) (the python3 executable exports it, and so
//   does a libpython loaded RTLD_GLOBAL by an embedding program), and it is only called
//   once Py_IsInitialized() says the interpreter runs (a registration before
//   initialisation could be reset by it; C's atexit covers such programs).
// - InitializeInjection runs in cuInit, on whichever thread first calls CUDA, often with
//   the GIL released (ctypes, C extensions). Py_AtExit needs no GIL: it appends a function
//   pointer to a fixed table of the runtime (32 slots, locked only since 3.13), touches no
//   Python object, and is called by extension modules at import, never concurrently with
//   cuInit in practice. A full table is reported, and C's atexit still covers a normal exit.
// - The hook runs on the thread that finalises Python, after all Python code stopped; it
//   must not touch Python (ours never does).
#pragma once

#include "util/status.h"

namespace gpuscope::inject {

// Registers `hook` with atexit and, when Python runs in this process, with Py_AtExit. An
// error only when atexit refused it; a Py_AtExit refusal is printed as one line.
Status RegisterExitHook(void (*hook)());

}  // namespace gpuscope::inject
