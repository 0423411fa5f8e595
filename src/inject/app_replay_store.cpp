#include "inject/app_replay_store.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gpuscope::inject {

std::string AppReplayStore::PathOf(std::uint32_t profile_index, const char* extension) const {
  return directory_ + "/" + std::to_string(profile_index) + extension;
}

Status AppReplayStore::Save(std::uint32_t profile_index, const AppReplayStep& step,
                            const std::vector<std::uint8_t>& counter_data) const {
  const std::string image = PathOf(profile_index, ".counterdata");
  const std::string state = PathOf(profile_index, ".state");
  {
    std::ofstream out(image, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(counter_data.data()),
              static_cast<std::streamsize>(counter_data.size()));
    if (!out) return Status::Error("cannot write " + image);
  }
  std::ofstream out(state, std::ios::trunc);
  out << step.pass_index << ' ' << step.target_nesting_level << ' ' << counter_data.size() << '\n'
      << step.kernel_name << '\n';
  if (!out) return Status::Error("cannot write " + state);
  return Status();
}

Status AppReplayStore::Load(std::uint32_t profile_index, const std::string& kernel_name,
                            std::vector<std::uint8_t>& counter_data, AppReplayStep& step) const {
  const std::string state = PathOf(profile_index, ".state");
  std::ifstream in(state);
  std::size_t size = 0;
  if (!(in >> step.pass_index >> step.target_nesting_level >> size)) {
    return Status::Error("the previous run left no replay state for profiled launch " +
                         std::to_string(profile_index) + " (" + state + ")");
  }
  in.ignore(1);
  std::getline(in, step.kernel_name);
  if (step.kernel_name != kernel_name) {
    return Status::Error("profiled launch " + std::to_string(profile_index) + " is " + kernel_name +
                         " in this run but was " + step.kernel_name +
                         " in the previous one: the program does not launch the same kernels "
                         "in the same order every run");
  }
  std::ifstream image(PathOf(profile_index, ".counterdata"), std::ios::binary);
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(image),
                                  std::istreambuf_iterator<char>()};
  if (bytes.size() != size || size != counter_data.size()) {
    return Status::Error("the counter data the previous run left for profiled launch " +
                         std::to_string(profile_index) + " has " + std::to_string(bytes.size()) +
                         " bytes, " + std::to_string(counter_data.size()) + " expected");
  }
  counter_data = std::move(bytes);
  return Status();
}

}  // namespace gpuscope::inject
