#include "inject/process_info.h"

#include <unistd.h>

#include <climits>
#include <fstream>
#include <iterator>

namespace gpuscope::inject {

std::string CommandLineOfThisProcess() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  if (!raw.empty()) return raw;
  char exe[PATH_MAX] = {};
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  return n > 0 ? std::string(exe, static_cast<std::size_t>(n)) : std::string("?");
}

ProcessDescription DescribeThisProcess(model::Timestamp start, const RankIdentity& identity,
                                       const char* boot_id_path) {
  ProcessDescription process;
  process.pid = static_cast<std::uint32_t>(getpid());
  process.parent_pid = static_cast<std::uint32_t>(getppid());
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) process.hostname = host;
  process.command_line = CommandLineOfThisProcess();
  process.start = start;
  process.boot_id = ReadBootId(boot_id_path);
  process.rank = identity.rank;
  process.local_rank = identity.local_rank;
  process.world_size = identity.world_size;
  process.rank_variable = identity.rank_variable;
  return process;
}

}  // namespace gpuscope::inject
