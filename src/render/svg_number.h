// Numbers in the SVG graphs (roofline, occupancy): one decimal, enough for a coordinate in
// user units and short enough to keep the files small. One format, so both graphs agree.
#pragma once

#include <string>

namespace gpuscope::render {

std::string SvgNumber(double value);

}  // namespace gpuscope::render
