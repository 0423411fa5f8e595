#include "cli/log_output.h"

#include <cerrno>
#include <cstring>
#include <iostream>

namespace gpuscope::cli {

StatusOr<LogTarget> ResolveLogTarget(const std::optional<std::string>& pattern,
                                     const PatternContext& context) {
  if (!pattern.has_value() || *pattern == "%2") return LogTarget{LogTarget::Kind::kStderr, ""};
  if (*pattern == "%1") return LogTarget{LogTarget::Kind::kStdout, ""};
  StatusOr<std::string> path = ExpandPathPattern(*pattern, context);
  if (!path.ok()) return path.status();
  return LogTarget{LogTarget::Kind::kFile, std::move(path.value())};
}

StatusOr<std::unique_ptr<LogOutput>> LogOutput::Open(const LogTarget& target) {
  switch (target.kind) {
    case LogTarget::Kind::kStdout:
      return std::unique_ptr<LogOutput>(new LogOutput(&std::cout));
    case LogTarget::Kind::kStderr:
      return Stderr();
    case LogTarget::Kind::kFile:
      break;
  }
  auto file = std::make_unique<std::ofstream>(target.path, std::ios::out | std::ios::trunc);
  if (!file->is_open()) {
    return Status::Error("cannot write log file '" + target.path + "': " + std::strerror(errno));
  }
  std::unique_ptr<LogOutput> log(new LogOutput(file.get()));
  log->file_ = std::move(file);
  return log;
}

std::unique_ptr<LogOutput> LogOutput::Stderr() {
  return std::unique_ptr<LogOutput>(new LogOutput(&std::cerr));
}

void LogOutput::Line(long pid, std::string_view text) {
  *stream_ << "==" << pid << "== " << text << '\n';
  stream_->flush();
}

}  // namespace gpuscope::cli
