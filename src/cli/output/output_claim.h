// What gpuscope promises about every file a command writes (docs/conventions.md, "Output files"):
// it never writes over a file the same command reads, never replaces an existing file unless asked
// to (-f / --force-overwrite), and never replaces a gpuscope report with anything but a
// report, even when asked: a report usually took a whole traced run to make, and an output
// path that names one is a typo. These are the checks; output_file.h writes by them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace gpuscope::cli {

struct OutputClaim {
  OutputClaim(std::string path, std::string what, std::vector<std::string> inputs,
              bool force_overwrite)
      : path(std::move(path)),
        what(std::move(what)),
        inputs(std::move(inputs)),
        force_overwrite(force_overwrite) {}

  std::string path;                 // as the user spelt it; messages repeat it
  std::string what;                 // "the SVG", "the log": "... not overwriting it with <what>"
  std::vector<std::string> inputs;  // the files the command reads
  bool force_overwrite = false;     // the user allowed replacing an existing file
  bool output_is_report = false;    // run/profile -o: then a report may be replaced (with -f)
  // How to allow the overwrite, for the "already exists" message.
  std::string overwrite_hint = "use -f to overwrite it";
  // Names the file in write errors: "cannot write <label> '<path>': <reason>" ("log file").
  std::string label;
};

// Ok when `claim.path` may be written: it is none of the inputs, and when it exists it is
// not a directory, not a gpuscope report (unless the output is one), and the overwrite was
// allowed. The directory is not checked here (creating the file says what is wrong there).
// A path that names a terminal, pipe, FIFO or device is a stream: nothing is replaced, so no
// -f is needed, but a report is refused there (it is a database file).
//
// Symbolic links at the path: a report is never written through one (the injection library
// refuses it too, store/report_file_create.h). Any other output is written through a link to
// an existing file, as cp and the shell's > do (latest.html -> runs/today.html stays a link),
// but only under the rules above applied to the file it names: that file exists, so -f is
// needed, and it is never an input or a report. A link to a missing file is refused, as
// GNU cp refuses "writing through dangling symlink": following it would create a file
// wherever the link's maker chose (the classic trap in a shared directory like /tmp), and
// replacing it would quietly turn the user's link into a file.
Status CheckOutputClaim(const OutputClaim& claim);

// Only the first rule: `claim.path` is none of `claim.inputs`. For a path whose name is not
// final yet (a pattern with %p expanded with a stand-in pid), where what exists there now
// says nothing.
Status CheckNotAnInput(const OutputClaim& claim);

// For an output directory (export --format csv -o DIR): ok when DIR does not exist or is a
// directory; an existing file in its place is named: an input, a report, or just a file.
Status CheckOutputDirectory(const OutputClaim& claim);

// Whether two paths name the same file: by device and inode when both exist (symlinks,
// hard links and any spelling), else by their canonical spelling ("./a", "d/../a" and "a"
// agree), so that an output that does not exist yet is still compared.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace gpuscope::cli
