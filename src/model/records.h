// Plain, vendor-neutral records of what happened in a traced process.
//
// Everything after the CUPTI boundary (src/cupti/tracing/translate.*) sees only these
// structs: the store, the analysis and the CLI never include a CUPTI header. Field
// meanings follow CUPTI's, but the enums are our own so that the report schema does not
// change when CUPTI renumbers something.
//
// Times are nanoseconds on one clock for host and GPU (CUPTI's default, CLOCK_REALTIME);
// 0 means "no timestamp" (CUPTI gives 0/0 when it could not time a GPU activity).
// Strings are views valid only for the duration of the sink call that receives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuscope::model {

using Timestamp = std::uint64_t;

// The values are stored in reports: never renumber, only append.
enum class ApiDomain : std::uint8_t { kRuntime = 1, kDriver = 2 };

enum class CopyKind : std::uint8_t {
  kUnknown = 0,
  kHtoD = 1,
  kDtoH = 2,
  kHtoA = 3,
  kAtoH = 4,
  kAtoA = 5,
  kAtoD = 6,
  kDtoA = 7,
  kDtoD = 8,
  kHtoH = 9,
  kPtoP = 10,
};

enum class MemoryKind : std::uint8_t {
  kUnknown = 0,
  kPageable = 1,
  kPinned = 2,
  kDevice = 3,
  kArray = 4,
  kManaged = 5,
  kDeviceStatic = 6,
  kManagedStatic = 7,
};

enum class MemoryOp : std::uint8_t { kAlloc = 1, kFree = 2 };

enum class SyncKind : std::uint8_t {
  kUnknown = 0,
  kEventSynchronize = 1,
  kStreamWaitEvent = 2,
  kStreamSynchronize = 3,
  kContextSynchronize = 4,
};

// Push/pop ranges nest on one thread; start/end ranges may cross threads.
enum class NvtxKind : std::uint8_t { kMark = 0, kPushPopRange = 1, kStartEndRange = 2 };

// A kernel execution (CUPTI CONCURRENT_KERNEL).
struct KernelRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::int64_t grid_id = 0;
  std::int32_t grid_x = 0, grid_y = 0, grid_z = 0;
  std::int32_t block_x = 0, block_y = 0, block_z = 0;
  std::uint32_t cluster_x = 0, cluster_y = 0, cluster_z = 0;
  std::uint16_t registers_per_thread = 0;
  std::int32_t static_shared_memory = 0;     // bytes per block
  std::int32_t dynamic_shared_memory = 0;    // bytes per block
  std::uint32_t shared_memory_executed = 0;  // SM carveout the driver chose, bytes
  std::uint32_t local_memory_per_thread = 0;
  std::uint64_t local_memory_total = 0;
  std::uint32_t graph_id = 0;  // 0: not launched from a graph
  std::uint64_t graph_node_id = 0;
  std::uint8_t launch_type = 0;   // 0 regular, 1 cooperative single, 2 cooperative multi, ...
  std::uint8_t cache_config = 0;  // requested/executed cache config as CUPTI packs it
  bool device_launched = false;   // launched with CUDA dynamic parallelism
  std::string_view mangled_name;
};

// A memory copy (CUPTI MEMCPY and MEMCPY2 for peer-to-peer).
struct MemcpyRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t runtime_correlation_id = 0;
  CopyKind copy_kind = CopyKind::kUnknown;
  MemoryKind src_kind = MemoryKind::kUnknown;
  MemoryKind dst_kind = MemoryKind::kUnknown;
  bool is_async = false;
  std::uint64_t bytes = 0;
  std::uint32_t src_device_id = 0;  // peer copies only
  std::uint32_t dst_device_id = 0;  // peer copies only
  std::uint32_t graph_id = 0;
  std::uint64_t graph_node_id = 0;
};

// A memset (CUPTI MEMSET).
struct MemsetRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t value = 0;
  MemoryKind memory_kind = MemoryKind::kUnknown;
  bool is_async = false;
  std::uint64_t bytes = 0;
  std::uint32_t graph_id = 0;
  std::uint64_t graph_node_id = 0;
};

// A CUDA runtime or driver API call (CUPTI RUNTIME / DRIVER).
struct ApiCallRecord {
  ApiDomain domain = ApiDomain::kRuntime;
  std::uint32_t cbid = 0;
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t correlation_id = 0;
  std::int32_t return_value = 0;
  std::string_view name;  // e.g. "cudaMalloc", without CUPTI's "_v3020" suffix
  // stacks.id of the host call stack that made the call (`--backtrace`); 0: none recorded.
  std::uint32_t stack_id = 0;
};

// A device memory allocation or free (CUPTI MEMORY2).
struct MemoryRecord {
  Timestamp timestamp = 0;
  MemoryOp op = MemoryOp::kAlloc;
  MemoryKind memory_kind = MemoryKind::kUnknown;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;  // 0xFFFFFFFF: synchronous
  std::uint32_t correlation_id = 0;
  bool is_async = false;
  std::uint64_t pc = 0;
};

// A host-side synchronization (CUPTI SYNCHRONIZATION).
struct SyncRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  SyncKind kind = SyncKind::kUnknown;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t event_id = 0;
  std::uint32_t correlation_id = 0;
};

// One NVTX range (push/pop or start/end, paired by the collector) or mark.
struct NvtxRecord {
  NvtxKind kind = NvtxKind::kPushPopRange;
  Timestamp start = 0;
  Timestamp end = 0;  // equal to start for marks; 0 when the range never ended
  std::uint32_t id = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t process_id = 0;
  std::uint32_t category = 0;
  std::uint32_t color = 0;  // ARGB, 0 when unset
  std::string_view name;
  std::string_view domain;  // empty: the default domain
};

// Time CUPTI itself spent (CUPTI OVERHEAD).
struct OverheadRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t overhead_kind = 0;  // CUPTI_ACTIVITY_OVERHEAD_* value
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::string_view name;  // human-readable overhead kind
};

// Properties of one GPU: what summaries, occupancy and roofline need.
struct DeviceRecord {
  std::uint32_t id = 0;
  std::string_view name;
  std::string_view uuid;  // hex
  std::uint32_t compute_major = 0;
  std::uint32_t compute_minor = 0;
  std::uint32_t num_sms = 0;
  std::uint32_t warp_size = 32;
  std::uint32_t max_threads_per_block = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::uint32_t max_blocks_per_sm = 0;
  std::uint32_t max_registers_per_sm = 0;
  std::uint32_t max_registers_per_block = 0;
  std::uint32_t max_shared_memory_per_sm = 0;
  std::uint32_t max_shared_memory_per_block = 0;
  std::uint32_t max_shared_memory_per_block_optin = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t global_memory_bandwidth_kbps = 0;  // kB/s
  std::uint32_t core_clock_khz = 0;
  std::uint32_t l2_cache_bytes = 0;
  std::uint32_t max_ipc = 0;
  std::uint32_t ecc_enabled = 0;
  bool mig_enabled = false;
};

struct ContextRecord {
  std::uint32_t context_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t null_stream_id = 0;
};

struct StreamRecord {
  std::uint32_t stream_id = 0;
  std::uint32_t context_id = 0;
  std::int32_t priority = 0;
  std::uint32_t flags = 0;
  std::uint32_t correlation_id = 0;  // of the call that created it (gpuscope's own are left out)
};

// The traced process itself, and where it stands among the processes of a multi-process
// job (what aligning and merging the reports of many ranks needs).
struct ProcessRecord {
  std::uint32_t pid = 0;
  std::uint32_t parent_pid = 0;
  std::string_view hostname;
  std::string_view command_line;  // arguments joined by spaces
  Timestamp start = 0;            // when tracing began
  std::string_view boot_id;       // the kernel's boot id (one per host and boot); empty: unknown
  // From the launcher's variables (OMPI_COMM_WORLD_RANK, PMI_RANK, ...); nullopt: unknown.
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> local_rank;
  std::optional<std::int64_t> world_size;
  std::string_view rank_variable;  // the variable that gave the rank; empty: none
};

// The clocks read at one moment: CUPTI's clock (the one every record's time is on), the
// host's CLOCK_REALTIME and CLOCK_MONOTONIC_RAW, and, for a sample of a device, that GPU's own
// timestamp. Taken when tracing starts, at every flush and at the end, so that reports of
// several processes (and hosts) can be put on one time axis, and clock drift seen.
struct ClockSampleRecord {
  Timestamp cupti_ns = 0;                  // CUPTI's clock (absolute ns)
  std::int64_t realtime_ns = 0;            // CLOCK_REALTIME (absolute ns)
  std::int64_t monotonic_ns = 0;           // CLOCK_MONOTONIC_RAW (ns since boot)
  std::optional<std::uint32_t> device_id;  // nullopt: the host clocks only
  std::optional<std::int64_t> gpu_ns;      // the device's timestamp; nullopt for the host pair
  // A GPU pair: the device's timestamp was read within +- this of the host clocks above (half
  // the host time around gpuscope's clock kernel, inject/host_clocks.h); nullopt for the host.
  std::optional<std::int64_t> gpu_uncertainty_ns;
};

// Counters of what could not be recorded. Every loss is counted here, never hidden.
struct CollectionCounters {
  std::uint64_t dropped_records = 0;  // CUPTI's own count (buffers it could not get)
  std::uint64_t kernels_without_timestamp = 0;
  std::uint64_t copies_without_timestamp = 0;
  std::uint64_t memsets_without_timestamp = 0;
  std::uint64_t unknown_records = 0;         // record kinds we do not translate
  std::uint64_t unfinished_nvtx_ranges = 0;  // started but never ended
  // Activity buffers whose rest could not be read (CUPTI refused a record, or translating
  // one failed): how many records were lost with them cannot be known.
  std::uint64_t unreadable_buffers = 0;
  // Records of gpuscope's own replay of profiled launches (source counters: its extra
  // launches and synchronisations), left out of the trace: not lost, not the program's.
  std::uint64_t own_replay_records = 0;
  // ns the tracing kinds were off while gpuscope replayed profiled launches (source counters:
  // CUPTI's SASS patching counts nothing while they are on); other threads' work then is missing.
  std::uint64_t tracing_paused_ns = 0;
  // `--backtrace`: calls whose host stack was not recorded (the stack table or the table of
  // calls waiting for their API record was full).
  std::uint64_t stacks_dropped = 0;
};

// One frame of a host call stack (`--backtrace`), innermost first in its stack.
enum class FrameKind : std::uint8_t { kNative = 0, kPython = 1 };

struct StackFrame {
  FrameKind kind = FrameKind::kNative;
  // Native: the return address (the instruction after the call); Python: 0.
  std::uint64_t address = 0;
  // Python: from the code object, and the line being run; native: empty until symbolised.
  std::string_view file;
  std::string_view function;
  std::uint32_t line = 0;
};

// A distinct host call stack, recorded once; API calls refer to it by id.
struct StackRecord {
  std::uint32_t id = 0;
  const StackFrame* frames = nullptr;
  std::size_t frame_count = 0;
};

// An object mapped into the process (the program, a shared library), for symbolising native
// frames after the run: the addresses [start, end) belong to it and `bias` is what was added
// to its ELF addresses (dl_iterate_phdr's dlpi_addr).
struct ModuleRecord {
  std::string_view path;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t bias = 0;
  std::string_view build_id;  // hex, empty when the object has none
};

}  // namespace gpuscope::model
