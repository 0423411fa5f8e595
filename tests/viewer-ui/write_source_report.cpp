// Writes the source probe's report (tests/support/probe_source_report.h) to argv[1], for the
// Source tab's browser test: `write_source_report out.sqlite`.
#include <iostream>

#include "../support/probe_source_report.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_source_report OUT.sqlite\n";
    return 2;
  }
  const gpuscope::Status written = gpuscope::testing::WriteProbeSourceReport({.path = argv[1]});
  if (!written.ok()) {
    std::cerr << "write_source_report: " << written.message() << '\n';
    return 1;
  }
  return 0;
}
