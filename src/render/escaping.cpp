#include "render/escaping.h"

#include <cmath>
#include <cstdio>

namespace gpuscope::render {

namespace {

// Length of the well-formed UTF-8 sequence at the start of `text`, 0 when it is not one.
// JSON must be valid UTF-8; names from a program (NVTX ranges) need not be.
std::size_t Utf8SequenceLength(std::string_view text) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(0);
  std::size_t length = lead < 0x80                    ? 1
                       : lead >= 0xC2 && lead <= 0xDF ? 2
                       : lead >= 0xE0 && lead <= 0xEF ? 3
                       : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                      : 0;
  if (length == 0 || length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms, UTF-16 surrogates and code points beyond U+10FFFF.
  if (length == 3 && lead == 0xE0 && byte(1) < 0xA0) return 0;
  if (length == 3 && lead == 0xED && byte(1) >= 0xA0) return 0;
  if (length == 4 && lead == 0xF0 && byte(1) < 0x90) return 0;
  if (length == 4 && lead == 0xF4 && byte(1) >= 0x90) return 0;
  return length;
}

}  // namespace

std::string CsvQuoted(std::string_view input) {
  const std::string safe = CsvSafeText(input);
  const std::string_view text = safe;
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string CsvField(std::string_view input) {
  std::string text = CsvSafeText(input);
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  return CsvQuoted(text);
}

namespace {

// "-1.5", "+3", "1e-9", "12,345": what a spreadsheet reads as a number, not a formula.
bool IsPlainNumber(std::string_view text) {
  std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  bool digits = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c != '.' && c != ',' && c != 'e' && c != 'E' && c != '-' && c != '+') {
      return false;
    }
  }
  // A lone "-" (a missing value) is text to a spreadsheet too.
  return digits || text.find_first_not_of('-') == std::string_view::npos;
}

}  // namespace

std::string CsvSafeText(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 1);
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text[0]) !=
                                            std::string_view::npos;
  if (formula && !IsPlainNumber(text)) out += '\'';
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte == 0 ? 0 : byte < 0x80 ? 1 : Utf8SequenceLength(text.substr(i));
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD, one per NUL or malformed byte
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(byte));
      out += escape;
    } else {
      out += c;
    }
  }
  return out;
}


std::string JsonString(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      std::size_t length = Utf8SequenceLength(text.substr(i));
      if (length == 0) {
        out += "\\ufffd";  // one replacement character per malformed byte
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
          out += escape;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string JsonNumber(double value, int significant_digits) {
  if (!std::isfinite(value)) return "null";
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", significant_digits, value);
  return text;
}

std::string XmlEscaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows only tab, LF and CR among the control characters.
        if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

void WriteQuotedCsvRow(std::ostream& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    out << CsvQuoted(cells[i]);
  }
  out << '\n';
}

}  // namespace gpuscope::render
