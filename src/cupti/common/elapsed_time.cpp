#include "cupti/common/elapsed_time.h"

#include <cstdio>

namespace gpuscope::cupti {

std::string Elapsed(SteadyClock::time_point start) {
  const double ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f ms", ms);
  return text;
}

}  // namespace gpuscope::cupti
