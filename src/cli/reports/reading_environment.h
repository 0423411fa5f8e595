// What the user's environment says about reading reports, read here by the command so that
// the store and the disassembler read no environment themselves: how many threads decode a
// report's rows (GPUSCOPE_READER_THREADS) and where nvdisasm is (GPUSCOPE_NVDISASM, PATH,
// CUDA_HOME).
#pragma once

#include "evaluate/report_evaluation.h"

namespace gpuscope::cli {

// GPUSCOPE_READER_THREADS, where set, for every report this process reads from now on
// (store::SetReaderThreads); a value that is not a number reads as 0 (the reading thread
// alone). Called once, before the command runs.
void ApplyReaderThreadsVariable();

// Where the evaluation looks for nvdisasm.
evaluate::NvdisasmSearch NvdisasmSearchFromEnvironment();

}  // namespace gpuscope::cli
