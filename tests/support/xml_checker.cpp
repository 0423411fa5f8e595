#include "xml_checker.h"

#include <cctype>
#include <set>
#include <vector>

namespace gpuscope::analysis::testing {
namespace {

class Checker {
 public:
  explicit Checker(std::string_view doc) : doc_(doc) {}

  std::optional<XmlSummary> Run(std::string* error) {
    bool ok = Document();
    if (!ok) {
      if (error) *error = error_ + " at offset " + std::to_string(pos_);
      return std::nullopt;
    }
    return summary_;
  }

 private:
  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }
  bool AtEnd() const { return pos_ >= doc_.size(); }
  bool StartsWith(std::string_view s) const { return doc_.substr(pos_).starts_with(s); }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(doc_[pos_]))) ++pos_;
  }
  static bool NameStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
  }
  static bool NameChar(char c) {
    return NameStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  }

  bool Name(std::string& name) {
    if (AtEnd() || !NameStart(doc_[pos_])) return Fail("expected a name");
    std::size_t start = pos_;
    while (!AtEnd() && NameChar(doc_[pos_])) ++pos_;
    name = std::string(doc_.substr(start, pos_ - start));
    return true;
  }

  // An entity or character reference after '&'; appends the decoded text.
  bool Reference(std::string& out) {
    std::size_t end = doc_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) return Fail("unterminated '&'");
    std::string_view ref = doc_.substr(pos_ + 1, end - pos_ - 1);
    static const std::map<std::string_view, char> kEntities = {
        {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    if (auto it = kEntities.find(ref); it != kEntities.end()) {
      out += it->second;
    } else if (ref.size() > 1 && ref[0] == '#') {
      std::string_view digits = ref.substr(1);
      bool hex = !digits.empty() && digits[0] == 'x';
      if (hex) digits.remove_prefix(1);
      if (digits.empty()) return Fail("empty character reference");
      for (char c : digits) {
        if (!(hex ? std::isxdigit(static_cast<unsigned char>(c))
                  : std::isdigit(static_cast<unsigned char>(c)))) {
          return Fail("bad character reference");
        }
      }
      out += '?';
    } else {
      return Fail("unknown entity '&" + std::string(ref) + ";'");
    }
    pos_ = end + 1;
    return true;
  }

  bool CharData(std::string& out, char stop) {
    while (!AtEnd() && doc_[pos_] != stop) {
      char c = doc_[pos_];
      if (c == '&') {
        if (!Reference(out)) return false;
        continue;
      }
      if (c == '<') return Fail("raw '<' in an attribute value");
      const unsigned char byte = static_cast<unsigned char>(c);
      if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        return Fail("control character");
      }
      out += c;
      ++pos_;
    }
    return true;
  }

  bool Comment() {
    std::size_t end = doc_.find("-->", pos_ + 4);
    if (end == std::string_view::npos) return Fail("unterminated comment");
    pos_ = end + 3;
    return true;
  }

  bool Misc() {
    for (;;) {
      SkipSpace();
      if (StartsWith("<!--")) {
        if (!Comment()) return false;
      } else {
        return true;
      }
    }
  }

  bool Element() {
    ++pos_;  // '<'
    std::string name;
    if (!Name(name)) return false;
    ++summary_.element_counts[name];
    if (summary_.root.empty()) summary_.root = name;
    std::set<std::string> attributes;
    for (;;) {
      bool had_space = !AtEnd() && std::isspace(static_cast<unsigned char>(doc_[pos_]));
      SkipSpace();
      if (AtEnd()) return Fail("unterminated tag <" + name + ">");
      if (StartsWith("/>")) {
        pos_ += 2;
        return true;
      }
      if (doc_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (!had_space) return Fail("attributes must be separated by space");
      std::string attribute;
      if (!Name(attribute)) return false;
      if (!attributes.insert(attribute).second) return Fail("duplicate attribute " + attribute);
      SkipSpace();
      if (AtEnd() || doc_[pos_] != '=') return Fail("expected '=' after " + attribute);
      ++pos_;
      SkipSpace();
      if (AtEnd() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) {
        return Fail("unquoted value of " + attribute);
      }
      char quote = doc_[pos_++];
      std::string value;
      if (!CharData(value, quote)) return false;
      if (AtEnd()) return Fail("unterminated value of " + attribute);
      ++pos_;
    }
    // Content.
    for (;;) {
      if (AtEnd()) return Fail("<" + name + "> is never closed");
      if (StartsWith("</")) {
        pos_ += 2;
        std::string closing;
        if (!Name(closing)) return false;
        if (closing != name) return Fail("</" + closing + "> closes <" + name + ">");
        SkipSpace();
        if (AtEnd() || doc_[pos_] != '>') return Fail("bad closing tag");
        ++pos_;
        return true;
      }
      if (StartsWith("<!--")) {
        if (!Comment()) return false;
      } else if (StartsWith("<")) {
        if (!Element()) return false;
      } else {
        std::string text;
        while (!AtEnd() && doc_[pos_] != '<') {
          if (doc_[pos_] == '&') {
            if (!Reference(text)) return false;
            continue;
          }
          if (doc_[pos_] == '>' && StartsWith("]]>")) return Fail("']]>' in text");
          text += doc_[pos_++];
        }
        summary_.text += text;
      }
    }
  }

  bool Document() {
    if (StartsWith("<?xml")) {
      std::size_t end = doc_.find("?>");
      if (end == std::string_view::npos) return Fail("unterminated XML declaration");
      pos_ = end + 2;
    }
    if (!Misc()) return false;
    if (AtEnd() || doc_[pos_] != '<') return Fail("no root element");
    if (!Element()) return false;
    if (!Misc()) return false;
    if (!AtEnd()) return Fail("content after the root element");
    return true;
  }

  std::string_view doc_;
  std::size_t pos_ = 0;
  std::string error_;
  XmlSummary summary_;
};

}  // namespace

std::optional<XmlSummary> CheckXml(std::string_view document, std::string* error) {
  return Checker(document).Run(error);
}

}  // namespace gpuscope::analysis::testing
