// Messages of the injection library on the traced program's stderr. Every line carries
// nvprof's "==PID==" prefix so users can tell gpuscope's lines from their program's, and
// is written with one write(2) so lines of several threads or processes never interleave.
//
// GPUSCOPE_DEBUG=1 turns on a short trace of the lifecycle (init, kinds enabled, buffers,
// flushes, exit): the coordinator runs the library on a GPU machine we cannot reach, so
// failures there must explain themselves from the log alone.
#pragma once

#include <string_view>

namespace gpuscope::inject {

// "==PID== gpuscope: <message>". Not async-signal-safe (formats into a string).
void LogError(std::string_view message);

// "==PID== <message>" (nvprof's banner style, e.g. "gpuscope is profiling process ...").
void LogBanner(std::string_view message);

// "==PID== gpuscope[debug]: <message>" when debug logging is on; nothing otherwise.
void LogDebug(std::string_view message);

void SetDebugLogging(bool enabled);
bool DebugLoggingEnabled();

// Async-signal-safe: writes "==PID== gpuscope: <message>\n" with a stack buffer.
void LogErrorFromSignalHandler(const char* message);

}  // namespace gpuscope::inject
