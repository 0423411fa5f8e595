#include "render/svg_number.h"

#include <cstdio>

namespace gpuscope::render {

std::string SvgNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace gpuscope::render
