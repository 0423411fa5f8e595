// `--align`, declared once for the two commands that show several reports on one time axis
// (`view` and `report`).
#pragma once

#include "cli/options/option_parser.h"
#include "viewer/axis_alignment.h"

namespace gpuscope::cli {

OptionSpec AlignOption(viewer::AxisAlignment& align);

}  // namespace gpuscope::cli
