#include "store_test_util.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace gpuscope::store::test {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/store_test.XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed for " << pattern;
  path_ = buffer.data();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

bool FileExists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

std::uint64_t FileSize(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::uint64_t>(info.st_size);
}

std::vector<char> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFileBytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::uint32_t FileChangeCounter(const std::string& path) {
  std::vector<char> bytes = ReadFileBytes(path);
  if (bytes.size() < 28) return 0;
  std::uint32_t counter = 0;
  for (std::size_t i = 24; i < 28; ++i) {
    counter = (counter << 8) | static_cast<std::uint8_t>(bytes[i]);
  }
  return counter;
}

namespace {

sqlite3* OpenRaw(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(db);
  }
  return db;
}

}  // namespace

std::string QueryText(const std::string& path, const std::string& sql) {
  sqlite3* db = OpenRaw(path);
  sqlite3_stmt* stmt = nullptr;
  std::string result;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
  } else if (int rc = sqlite3_step(stmt); rc == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(stmt, 0);
    if (text != nullptr) result = reinterpret_cast<const char*>(text);
  } else if (rc != SQLITE_DONE) {
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

std::int64_t QueryInt(const std::string& path, const std::string& sql) {
  return std::strtoll(QueryText(path, sql).c_str(), nullptr, 10);
}

void ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = OpenRaw(path);
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    ADD_FAILURE() << sql << ": " << (error != nullptr ? error : "?");
  }
  sqlite3_free(error);
  sqlite3_close(db);
}

model::KernelRecord SampleKernel(int i) {
  static const char* const kNames[] = {"_Z6vecAddPKfS0_Pfi", "_Z3addiiPi", "triton_poi_fused_0"};
  model::KernelRecord r;
  r.start = kT0 + 1000 * i + 17;
  r.end = r.start + 2345 + i;
  r.device_id = 1;
  r.context_id = 3 + i;
  r.stream_id = 13 + i;
  r.correlation_id = 1001 + i;
  r.grid_id = 77 + i;
  r.grid_x = 120 + i;
  r.grid_y = 2;
  r.grid_z = 3;
  r.block_x = 256;
  r.block_y = 4;
  r.block_z = 5;
  r.cluster_x = 2;
  r.cluster_y = 6;
  r.cluster_z = 7;
  r.registers_per_thread = 40 + i;
  r.static_shared_memory = 4096 + i;
  r.dynamic_shared_memory = 8192 + i;
  r.shared_memory_executed = 167936;
  r.local_memory_per_thread = 24;
  r.local_memory_total = 65'011'712ull + i;
  r.graph_id = 9 + i;
  r.graph_node_id = 0x8000'0000'0000'0010ull + i;  // >= 2^63: stored as a negative integer
  r.launch_type = 1;
  r.cache_config = 0x12;
  r.device_launched = true;
  r.mangled_name = kNames[i % 3];
  return r;
}

model::MemcpyRecord SampleMemcpy(int i) {
  model::MemcpyRecord r;
  r.start = kT0 + 500 * i + 3;
  r.end = r.start + 999;
  r.device_id = 1;
  r.context_id = 3;
  r.stream_id = 14;
  r.correlation_id = 2001 + i;
  r.runtime_correlation_id = 2000 + i;
  r.copy_kind = i % 2 ? model::CopyKind::kPtoP : model::CopyKind::kDtoH;
  r.src_kind = model::MemoryKind::kDevice;
  r.dst_kind = model::MemoryKind::kPinned;
  r.is_async = true;
  r.bytes = (1ull << 33) + i;
  r.src_device_id = 1;
  r.dst_device_id = 2;
  r.graph_id = 4;
  r.graph_node_id = 55;
  return r;
}

model::MemsetRecord SampleMemset(int i) {
  model::MemsetRecord r;
  r.start = kT0 + 700 * i + 5;
  r.end = r.start + 333;
  r.device_id = 1;
  r.context_id = 3;
  r.stream_id = 15;
  r.correlation_id = 3001 + i;
  r.value = 0xAB;
  r.memory_kind = model::MemoryKind::kManaged;
  r.is_async = true;
  r.bytes = 4096 + i;
  r.graph_id = 6;
  r.graph_node_id = 66;
  return r;
}

model::ApiCallRecord SampleApiCall(int i) {
  static const char* const kNames[] = {"cudaLaunchKernel", "cuLaunchKernel", "cudaMalloc"};
  model::ApiCallRecord r;
  r.domain = i % 3 == 1 ? model::ApiDomain::kDriver : model::ApiDomain::kRuntime;
  r.cbid = 211 + i;
  r.start = kT0 + 900 * i + 1;
  r.end = r.start + 4321;
  r.process_id = 48213;
  r.thread_id = 0xFA5BE740u;  // above 2^31
  r.correlation_id = 1001 + i;
  r.return_value = i % 2 ? 700 : 0;
  r.name = kNames[i % 3];
  return r;
}

model::MemoryRecord SampleMemory(int i) {
  model::MemoryRecord r;
  r.timestamp = kT0 + 300 * i + 9;
  r.op = i % 2 ? model::MemoryOp::kFree : model::MemoryOp::kAlloc;
  r.memory_kind = model::MemoryKind::kDevice;
  r.address = 0xFFFF'8000'0000'1000ull + i;  // >= 2^63
  r.bytes = 1 << 20;
  r.device_id = 1;
  r.context_id = 3;
  r.stream_id = 0xFFFFFFFFu;
  r.correlation_id = 4001 + i;
  r.is_async = i % 2 == 0;
  r.pc = 0x7f00'1234'5678ull;
  return r;
}

model::SyncRecord SampleSync(int i) {
  model::SyncRecord r;
  r.start = kT0 + 1100 * i + 2;
  r.end = r.start + 50'000;
  r.kind = model::SyncKind::kStreamSynchronize;
  r.context_id = 3;
  r.stream_id = 13;
  r.event_id = 8 + i;
  r.correlation_id = 5001 + i;
  return r;
}

model::NvtxRecord SampleNvtx(int i) {
  static const char* const kNames[] = {"forward", "backward", "step 7"};
  model::NvtxRecord r;
  r.kind = i % 2 ? model::NvtxKind::kStartEndRange : model::NvtxKind::kPushPopRange;
  r.start = kT0 + 1300 * i + 4;
  r.end = r.start + 100'000;
  r.id = 31 + i;
  r.thread_id = 0x3a5be740u;
  r.process_id = 48213;
  r.category = 2;
  r.color = 0xFF00FF00u;
  r.name = kNames[i % 3];
  r.domain = i % 2 ? "my-domain" : "";
  return r;
}

model::OverheadRecord SampleOverhead(int i) {
  model::OverheadRecord r;
  r.start = kT0 + 1700 * i + 6;
  r.end = r.start + 2'200'000;
  r.overhead_kind = 7u << 16;
  r.process_id = 48213;
  r.thread_id = 0x3a5be741u;
  r.name = "activity buffer request";
  return r;
}

model::DeviceRecord SampleDevice(int i) {
  model::DeviceRecord r;
  r.id = static_cast<std::uint32_t>(i);
  r.name = "NVIDIA H200";
  r.uuid = "GPU-5f0e3a52-8c4d-1b7e-a9f2-0c61d2e4b7a8";
  r.compute_major = 9;
  r.compute_minor = 1 + i;
  r.num_sms = 132;
  r.warp_size = 32;
  r.max_threads_per_block = 1024;
  r.max_warps_per_sm = 64;
  r.max_blocks_per_sm = 32;
  r.max_registers_per_sm = 65536;
  r.max_registers_per_block = 65535;
  r.max_shared_memory_per_sm = 233472;
  r.max_shared_memory_per_block = 49152;
  r.max_shared_memory_per_block_optin = 232448;
  r.global_memory_bytes = 150'754'820'096ull;
  r.global_memory_bandwidth_kbps = 4'800'000'000ull;
  r.core_clock_khz = 1'980'000;
  r.l2_cache_bytes = 52'428'800;
  r.max_ipc = 0xFFFFFFFFu;
  r.ecc_enabled = 1;
  r.mig_enabled = true;
  return r;
}

}  // namespace gpuscope::store::test
