#include "cli/options/align_option.h"

#include "cli/options/option_targets.h"

namespace gpuscope::cli {

OptionSpec AlignOption(viewer::AxisAlignment& align) {
  return {"align", 0, viewer::kAxisAlignmentSyntax,
          "time axis of several reports: their starts together (default), CUPTI's absolute "
          "time, or the first instance of an NVTX range together (nvtx:\"step 3\")",
          StoreParsed(align, viewer::ParseAxisAlignment)};
}

}  // namespace gpuscope::cli
