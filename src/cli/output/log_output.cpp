#include "cli/output/log_output.h"

#include <iostream>

#include "cli/output/command_error.h"

namespace gpuscope::cli {

StatusOr<LogTarget> ResolveLogTarget(const std::optional<std::string>& pattern,
                                     const PatternContext& context) {
  if (!pattern.has_value() || *pattern == "%2") return LogTarget{LogTarget::Kind::kStderr, ""};
  if (*pattern == "%1") return LogTarget{LogTarget::Kind::kStdout, ""};
  StatusOr<std::string> path = ExpandPathPattern(*pattern, context);
  if (!path.ok()) return path.status();
  return LogTarget{LogTarget::Kind::kFile, std::move(path.value())};
}

StatusOr<std::unique_ptr<LogOutput>> LogOutput::Open(const LogTarget& target,
                                                     const std::vector<std::string>& inputs,
                                                     bool force_overwrite) {
  switch (target.kind) {
    case LogTarget::Kind::kStdout:
      return std::unique_ptr<LogOutput>(new LogOutput(&std::cout));
    case LogTarget::Kind::kStderr:
      return Stderr();
    case LogTarget::Kind::kFile:
      break;
  }
  OutputClaim claim(target.path, "the log", inputs, force_overwrite);
  claim.label = "log file";
  StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Create(std::move(claim));
  if (!file.ok()) return file.status();
  std::unique_ptr<LogOutput> log(new LogOutput(&(*file)->stream()));
  log->file_ = std::move(file.value());
  return log;
}

std::unique_ptr<LogOutput> LogOutput::Stderr() {
  return std::unique_ptr<LogOutput>(new LogOutput(&std::cerr));
}

LogOutput::~LogOutput() {
  Status closed = Close();
  if (!closed.ok()) CommandError(closed.message());
}

Status LogOutput::Close() {
  if (!file_) return {};
  std::unique_ptr<OutputFile> file = std::move(file_);
  stream_ = &std::cerr;  // anything written after Close still goes somewhere
  return file->Commit();
}

void LogOutput::Line(long pid, std::string_view text) {
  // One line whatever the text holds (a command line or kernel name from a report), also in
  // a log file that someone will cat.
  *stream_ << "==" << pid << "== " << render::TerminalText(text) << '\n';
  stream_->flush();
}

}  // namespace gpuscope::cli
