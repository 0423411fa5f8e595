// The temporary files of outputs not yet renamed into place (output_file.h), removed when a
// signal ends gpuscope first: an interrupted command leaves no ".<name>.gpuscope-*" behind.
// Only signals that would otherwise end gpuscope with their default action are caught; a
// command that handles a signal itself (run forwards Ctrl-C to the program) keeps it.
#pragma once

#include <string>

namespace gpuscope::cli {

void RegisterUnfinishedOutput(const std::string& temporary_path);
void ForgetUnfinishedOutput(const std::string& temporary_path);

}  // namespace gpuscope::cli
