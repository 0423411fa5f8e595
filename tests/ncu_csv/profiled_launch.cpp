#include "profiled_launch.h"

namespace gpuscope::ncu_csv {

std::string KernelFunctionName(std::string_view name) {
  // The parameter list starts at the first '(' outside template arguments.
  int depth = 0;
  size_t end = name.size();
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>' && depth > 0) --depth;
    if (name[i] == '(' && depth == 0) {
      end = i;
      break;
    }
  }
  std::string_view head = name.substr(0, end);
  // Template arguments at the end of the name go, the return type before a space goes.
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  if (!head.empty() && head.back() == '>') {
    int nesting = 0;
    for (size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++nesting;
      if (head[i] == '<' && --nesting == 0) {
        head = head.substr(0, i);
        break;
      }
    }
  }
  size_t space = head.rfind(' ');
  if (space != std::string_view::npos) head.remove_prefix(space + 1);
  size_t scope = head.rfind("::");
  if (scope != std::string_view::npos) head.remove_prefix(scope + 2);
  return std::string(head);
}

}  // namespace gpuscope::ncu_csv
