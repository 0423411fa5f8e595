// What the first word of `gpuscope WORD ...` is, when it is no subcommand: the shorthand
// `gpuscope <program>` traces a program, but a typo of a command (`gpuscope stast`) or a report
// (`gpuscope r.sqlite`) is no program to trace, and `gpuscope stat r.sqlite` must not run
// /usr/bin/stat under tracing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::cli {

// The subcommand `word` is a near miss of: at most one edit (insertion, deletion,
// substitution or swap of neighbours) for names of up to four letters, two for longer ones.
// Words with a '/' are paths and never near misses.
std::optional<std::string_view> NearMissCommand(std::string_view word);

// An SQLite file (a gpuscope report, or any database): by its 16-byte header.
bool IsSqliteFile(const std::string& path);

// "'r.sqlite' is a report, not a program to trace: did you mean 'gpuscope stats r.sqlite'?"
std::string ReportIsNoProgramError(const std::string& word);

// The usage error for `gpuscope WORD`, or nullopt when WORD is a program to trace.
std::optional<std::string> NotAProgramError(const std::string& word);

}  // namespace gpuscope::cli
