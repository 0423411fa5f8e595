// Status values instead of exceptions across module boundaries (Perfetto's base::Status
// idea): a failure carries a one-line, user-facing message, and the caller decides whether
// it ends the command. Nothing here may throw, so it is safe inside the injection library.
#pragma once

#include <optional>
#include <string>
#include <utility>

// In `gpuscope` itself, not gpuscope::util (the one exception to namespaces following folders):
// Status and StatusOr are the project's vocabulary types, used in every folder.
namespace gpuscope {

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  // One line, no trailing newline, no "error:" prefix: the printer adds the prefix.
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: must be an error

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

// `message` about the file at `path`, naming it once: "path: message" unless the message (SQLite's,
// a reader's) already quotes the path. For errors about one of several reports.
inline std::string NamingPath(const std::string& message, const std::string& path) {
  return message.find(path) != std::string::npos ? message : path + ": " + message;
}

}  // namespace gpuscope

#define GPUSCOPE_RETURN_IF_ERROR(expr)   \
  do {                                   \
    ::gpuscope::Status status_ = (expr); \
    if (!status_.ok()) return status_;   \
  } while (0)
