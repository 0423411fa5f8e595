// After a `--backtrace` run: the native frames of a report's call stacks get their function,
// file and line (symbols/, elfutils), read from the files of the modules the process had
// mapped, here on the machine that ran it, where those files are. Written into the report once
// (meta.stacks_symbolized), so that reading it later, elsewhere, needs no ELF file.
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::cli {

// Does nothing for a report without unsymbolized native frames. The report must be finalised.
Status SymbolizeStacks(const std::string& report_path);

}  // namespace gpuscope::cli
