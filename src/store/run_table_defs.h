// The report's tables about the run itself, each declared once (table_info.h): the report's
// identity, the process, its clocks, devices, contexts and streams, the interned names, the API
// calls counted instead of recorded, graph launches, and what was lost or left out. Listed,
// with every other table, in report_tables.h. The tables that store a model record member by
// member declare each column with its member and the reader's (record_column.h): the writer
// binds (record_binder.h), and the reader reads (record_decoder.h), from that declaration.
#pragma once

#include <tuple>

#include "model/capture_records.h"
#include "model/records.h"
#include "store/record_column.h"
#include "store/report_reader.h"
#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kMetaColumns[] = {
    {"key", "TEXT PRIMARY KEY", "see the rows below"},
    {"value", "TEXT", "always text; cast numbers with CAST(value AS INTEGER)"},
};

inline constexpr TableInfo kMetaTable = {
    .name = "meta",
    .doc = "Key/value facts about the report: what wrote it, its time base, whether it is complete,\n"
           "what was traced and how.",
    .columns = kMetaColumns,
    .trailer = "format            'gpuscope-report'\n"
               "schema_version    '4' (equal to PRAGMA user_version)\n"
               "gpuscope_version  version of the gpuscope that wrote the report, e.g. '0.1.0'\n"
               "time_base_ns      absolute time (ns, CUPTI clock) that every stored time is relative to\n"
               "finalized         '1' once the writer closed the report or `gpuscope` finalised it after\n"
               "                  the program ended (even by kill -9); '0' while it is being written\n"
               "closed_by_writer  '1' once the writer closed the report itself (the process ended\n"
               "                  normally); stays '0' when the process died (kill -9, a crash) and only\n"
               "                  the finaliser ran: the data then ends at the last flush (process.end).\n"
               "                  Absent in reports of older gpuscope versions: unknown.\n"
               "profile_sections  `gpuscope profile` only: the section identifiers requested, comma\n"
               "                  separated, in print order (written when the metrics are evaluated)\n"
               "profile_metrics   `gpuscope profile` only: the metrics requested with --metrics, comma\n"
               "                  separated (printed as the section 'Command line profiler metrics')\n"
               "profile_replay    `gpuscope profile` only: how the launches were replayed, in words (cache\n"
               "                  control, whether device memory was saved and restored between passes)\n"
               "trace             what was traced (--trace): 'cuda,nvtx', 'cuda', 'cuda-gpu', 'nvtx',\n"
               "                  'none', ... (util/trace_scope.h); absent (reports before version 4):\n"
               "                  everything gpuscope records\n"
               "api_capture       how API calls were captured (--api-capture): 'activity' (every call\n"
               "                  in api_calls, the runtime's own driver calls marked nested) or\n"
               "                  'callback' (the program's calls in api_calls, the hot no-op calls\n"
               "                  counted in api_call_counts); absent: 'activity'\n"
               "cuda_graph_trace  'node' (every kernel of a graph launch) or 'graph' (graph_launches,\n"
               "                  no per-node kernels); absent: 'node'\n"
               "stacks_symbolized `--backtrace` only: '1' once `gpuscope` looked up the native frames'\n"
               "                  functions and lines (after the run, with the modules below)",
    .without_rowid = true,
};

inline constexpr auto kProcessRecordColumns = std::tuple{
    BoundApart("id", "INTEGER PRIMARY KEY CHECK (id = 1)", "always 1: one process per report"),
    Stores<&model::ProcessRecord::pid, &ProcessInfo::pid>("pid", "INTEGER NOT NULL", "process id of the traced process"),
    Stores<&model::ProcessRecord::parent_pid, &ProcessInfo::parent_pid>("parent_pid", "INTEGER NOT NULL", "its parent's process id"),
    Stores<&model::ProcessRecord::hostname, &ProcessInfo::hostname>("hostname", "TEXT NOT NULL", "host it ran on"),
    Stores<&model::ProcessRecord::command_line, &ProcessInfo::command_line>("command_line", "TEXT NOT NULL", "program and arguments, joined by spaces"),
    StoresTime<&model::ProcessRecord::start, &ProcessInfo::start>("start", "INTEGER", "ns, relative: when tracing began"),
    // Written at each flush (ReportWriter::WriteFlushState).
    BoundApart<&ProcessInfo::end, Kept::kTime>("end", "INTEGER", "ns, relative: the last flush (NULL: never flushed)"),
    Stores<&model::ProcessRecord::boot_id, &ProcessInfo::boot_id>("boot_id", "TEXT NOT NULL", "/proc/sys/kernel/random/boot_id of the host ('' unknown):\n"
      "equal in two reports = same host, same boot, same clocks"),
    Stores<&model::ProcessRecord::rank, &ProcessInfo::rank>("rank", "INTEGER", "rank in the job (NULL: unknown), from rank_variable"),
    Stores<&model::ProcessRecord::local_rank, &ProcessInfo::local_rank>("local_rank", "INTEGER", "rank among the job's processes on this host (NULL: unknown)\n"
      "from the first set of OMPI_COMM_WORLD_LOCAL_RANK,\n"
      "MPI_LOCALRANKID, SLURM_LOCALID, LOCAL_RANK"),
    Stores<&model::ProcessRecord::world_size, &ProcessInfo::world_size>("world_size", "INTEGER", "processes in the job (NULL: unknown), from the first set of\n"
      "OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS, WORLD_SIZE"),
    Stores<&model::ProcessRecord::rank_variable, &ProcessInfo::rank_variable>("rank_variable", "TEXT NOT NULL", "the variable that gave rank, the first set of\n"
      "OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, RANK ('' none)"),
};
inline constexpr auto kProcessColumns = ColumnInfosOf(kProcessRecordColumns);

inline constexpr TableInfo kProcessTable = {
    .name = "process",
    .doc = "The traced process, and where it stands in a job of many processes (ranks): what merging\n"
           "the reports of several processes and hosts needs (clock_samples holds their clocks).",
    .columns = kProcessColumns,
};

// cupti_ns is on the clock of every other time, so it is stored relative like them (and may
// become the time base); the other clocks are absolute.
inline constexpr auto kClockSamplesRecordColumns = std::tuple{
    BoundApart("id", "INTEGER PRIMARY KEY", "insertion order (time order)"),
    StoresTime<&model::ClockSampleRecord::cupti_ns, &ClockSample::cupti_ns>("cupti_ns", "INTEGER NOT NULL", "ns, relative: CUPTI's clock, the clock of every other time"),
    Stores<&model::ClockSampleRecord::realtime_ns, &ClockSample::realtime_ns>("realtime_ns", "INTEGER NOT NULL", "ns, absolute: CLOCK_REALTIME, read right after cupti_ns"),
    Stores<&model::ClockSampleRecord::monotonic_ns, &ClockSample::monotonic_ns>("monotonic_ns", "INTEGER NOT NULL", "ns, absolute: CLOCK_MONOTONIC_RAW (since boot), read then"),
    Stores<&model::ClockSampleRecord::device_id, &ClockSample::device_id>("device_id", "INTEGER", "devices.id of the GPU sampled; NULL: the host clocks only"),
    Stores<&model::ClockSampleRecord::gpu_ns, &ClockSample::gpu_ns>("gpu_ns", "INTEGER", "ns, absolute: that GPU's timestamp (%globaltimer);\n"
      "NULL for the host row"),
    Stores<&model::ClockSampleRecord::gpu_uncertainty_ns, &ClockSample::gpu_uncertainty_ns>("gpu_uncertainty_ns", "INTEGER", "ns: gpu_ns was read within +- this of the host clocks of\n"
      "the row (half the host time around the read); NULL for the\n"
      "host row (and in reports written before GPU pairs)"),
};
inline constexpr auto kClockSamplesColumns = ColumnInfosOf(kClockSamplesRecordColumns);

inline constexpr TableInfo kClockSamplesTable = {
    .name = "clock_samples",
    .doc = "The clocks read together at one moment: when tracing starts, at every flush and at the\n"
           "end. Each moment gives one row for the host (CUPTI's clock with CLOCK_REALTIME and\n"
           "CLOCK_MONOTONIC_RAW) and, from the flushes on, a GPU pair per device with a live context\n"
           "(device_id set): gpu_ns, that GPU's own timestamp (%globaltimer, read by a one-thread kernel\n"
           "of gpuscope's own, left out of the trace), against the host clocks at the middle of the\n"
           "window from before its launch to its value seen, within +- gpu_uncertainty_ns. No GPU pair\n"
           "while a stream capture may be under way, under `gpuscope profile`, or after the GPU read\n"
           "failed once (said on stderr). Reports of one boot of one host (same process.boot_id) share\n"
           "CLOCK_MONOTONIC_RAW; realtime_ns - cupti_ns shows how CUPTI's clock stands to the host's\n"
           "over the run; gpu_ns - realtime_ns how the GPU's clock does (its offset, drift, residual).",
    .columns = kClockSamplesColumns,
};

inline constexpr auto kDevicesRecordColumns = std::tuple{
    Stores<&model::DeviceRecord::id>("id", "INTEGER PRIMARY KEY", "CUDA device ordinal"),
    Stores<&model::DeviceRecord::name, &DeviceInfo::name>("name", "TEXT NOT NULL", "e.g. 'NVIDIA H200'"),
    Stores<&model::DeviceRecord::uuid, &DeviceInfo::uuid>("uuid", "TEXT NOT NULL", "hex"),
    Stores<&model::DeviceRecord::compute_major>("compute_major", "INTEGER NOT NULL", "compute capability, major"),
    Stores<&model::DeviceRecord::compute_minor>("compute_minor", "INTEGER NOT NULL", "compute capability, minor"),
    Stores<&model::DeviceRecord::num_sms>("num_sms", "INTEGER NOT NULL", "streaming multiprocessors"),
    Stores<&model::DeviceRecord::warp_size>("warp_size", "INTEGER NOT NULL", "threads per warp"),
    Stores<&model::DeviceRecord::max_threads_per_block>("max_threads_per_block", "INTEGER NOT NULL", "threads"),
    Stores<&model::DeviceRecord::max_warps_per_sm>("max_warps_per_sm", "INTEGER NOT NULL", "warps"),
    Stores<&model::DeviceRecord::max_blocks_per_sm>("max_blocks_per_sm", "INTEGER NOT NULL", "thread blocks"),
    Stores<&model::DeviceRecord::max_registers_per_sm>("max_registers_per_sm", "INTEGER NOT NULL", "32-bit registers"),
    Stores<&model::DeviceRecord::max_registers_per_block>("max_registers_per_block", "INTEGER NOT NULL", "32-bit registers"),
    Stores<&model::DeviceRecord::max_shared_memory_per_sm>("max_shared_memory_per_sm", "INTEGER NOT NULL", "bytes"),
    Stores<&model::DeviceRecord::max_shared_memory_per_block>("max_shared_memory_per_block", "INTEGER NOT NULL", "bytes, without opt-in"),
    Stores<&model::DeviceRecord::max_shared_memory_per_block_optin>("max_shared_memory_per_block_optin", "INTEGER NOT NULL", "bytes, with opt-in"),
    Stores<&model::DeviceRecord::global_memory_bytes>("global_memory_bytes", "INTEGER NOT NULL", "bytes"),
    Stores<&model::DeviceRecord::global_memory_bandwidth_kbps>("global_memory_bandwidth_kbps", "INTEGER NOT NULL", "kB/s"),
    Stores<&model::DeviceRecord::core_clock_khz>("core_clock_khz", "INTEGER NOT NULL", "kHz"),
    Stores<&model::DeviceRecord::l2_cache_bytes>("l2_cache_bytes", "INTEGER NOT NULL", "bytes"),
    Stores<&model::DeviceRecord::max_ipc>("max_ipc", "INTEGER NOT NULL", "instructions per cycle (4294967295: unknown)"),
    Stores<&model::DeviceRecord::ecc_enabled>("ecc_enabled", "INTEGER NOT NULL", "0/1"),
    Stores<&model::DeviceRecord::mig_enabled>("mig_enabled", "INTEGER NOT NULL", "0/1"),
};
inline constexpr auto kDevicesColumns = ColumnInfosOf(kDevicesRecordColumns);

inline constexpr TableInfo kDevicesTable = {
    .name = "devices",
    .doc = "The GPUs the process used.",
    .columns = kDevicesColumns,
};

inline constexpr auto kContextsRecordColumns = std::tuple{
    Stores<&model::ContextRecord::context_id>("context_id", "INTEGER PRIMARY KEY", "CUPTI context id"),
    Stores<&model::ContextRecord::device_id>("device_id", "INTEGER NOT NULL", "devices.id"),
    Stores<&model::ContextRecord::null_stream_id>("null_stream_id", "INTEGER NOT NULL", "stream id of the context's default (NULL) stream"),
};
inline constexpr auto kContextsColumns = ColumnInfosOf(kContextsRecordColumns);

inline constexpr TableInfo kContextsTable = {
    .name = "contexts",
    .doc = "The CUDA contexts seen.",
    .columns = kContextsColumns,
};

inline constexpr auto kStreamsRecordColumns = std::tuple{
    Stores<&model::StreamRecord::stream_id>("stream_id", "INTEGER NOT NULL", "CUPTI stream id (what event rows call stream_id)"),
    Stores<&model::StreamRecord::context_id>("context_id", "INTEGER NOT NULL", "contexts.context_id"),
    Stores<&model::StreamRecord::priority>("priority", "INTEGER NOT NULL", "stream priority (lower is higher priority)"),
    Stores<&model::StreamRecord::flags>("flags", "INTEGER NOT NULL", "cudaStreamCreateWithFlags flags (1: non-blocking)"),
};
inline constexpr auto kStreamsColumns = ColumnInfosOf(kStreamsRecordColumns);

inline constexpr TableInfo kStreamsTable = {
    .name = "streams",
    .doc = "The CUDA streams seen.",
    .columns = kStreamsColumns,
    .constraint = "PRIMARY KEY (context_id, stream_id)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kStringsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "what *_id / name_id columns refer to"},
    {"value", "TEXT NOT NULL", "the name as recorded (kernel names: mangled)"},
    {"demangled", "TEXT", "kernel names only: demangled with the parameter list\n"
      "(equal to value when not a mangled C++ name); else NULL"},
};

inline constexpr TableInfo kStringsTable = {
    .name = "strings",
    .doc = "Interned names: kernels, API functions, NVTX ranges and domains, overhead kinds.",
    .columns = kStringsColumns,
};

inline constexpr auto kApiCallCountsRecordColumns = std::tuple{
    Stores<&model::ApiCallCountRecord::thread_id>("thread_id", "INTEGER NOT NULL", "thread id (as api_calls.thread_id)"),
    Stores<&model::ApiCallCountRecord::domain>("domain", "INTEGER NOT NULL", "api_domains.id (1 runtime, 2 driver)"),
    Stores<&model::ApiCallCountRecord::cbid>("cbid", "INTEGER NOT NULL", "CUPTI callback id within the domain"),
    StoresName<&model::ApiCallCountRecord::name>("name_id", "INTEGER NOT NULL", "strings.id of the function name, e.g. 'cudaGetDevice'"),
    Stores<&model::ApiCallCountRecord::process_id>("process_id", "INTEGER NOT NULL", "process id"),
    Stores<&model::ApiCallCountRecord::calls>("calls", "INTEGER NOT NULL", "how many calls the thread made"),
    Stores<&model::ApiCallCountRecord::total_ns>("total_ns", "INTEGER NOT NULL", "their summed duration, ns"),
    Stores<&model::ApiCallCountRecord::min_ns>("min_ns", "INTEGER NOT NULL", "the shortest, ns"),
    Stores<&model::ApiCallCountRecord::max_ns>("max_ns", "INTEGER NOT NULL", "the longest, ns"),
    StoresTime<&model::ApiCallCountRecord::first_start>("first_start", "INTEGER", "ns, relative: the first call's start"),
    StoresTime<&model::ApiCallCountRecord::last_end>("last_end", "INTEGER", "ns, relative: the last call's end"),
};
inline constexpr auto kApiCallCountsColumns = ColumnInfosOf(kApiCallCountsRecordColumns);

inline constexpr TableInfo kApiCallCountsTable = {
    .name = "api_call_counts",
    .doc = "Hot no-op API calls (cudaGetDevice, cuCtxGetCurrent, ...: cupti/tracing/hot_api_calls.h) counted\n"
           "per thread and function instead of one api_calls row each (meta.api_capture 'callback').\n"
           "Every summary of API calls adds these to the rows of api_calls.",
    .columns = kApiCallCountsColumns,
    .constraint = "PRIMARY KEY (thread_id, domain, cbid)",
    .without_rowid = true,
};

inline constexpr auto kGraphLaunchesRecordColumns = std::tuple{
    BoundApart("id", "INTEGER PRIMARY KEY", "insertion order"),
    StoresTime<&model::GraphLaunchRecord::start>("start", "INTEGER", "ns, relative: the start of the graph's first node"),
    StoresTime<&model::GraphLaunchRecord::end>("end", "INTEGER", "ns, relative: the end of its last node"),
    Stores<&model::GraphLaunchRecord::device_id>("device_id", "INTEGER NOT NULL", "devices.id"),
    Stores<&model::GraphLaunchRecord::context_id>("context_id", "INTEGER NOT NULL", "contexts.context_id"),
    Stores<&model::GraphLaunchRecord::stream_id>("stream_id", "INTEGER NOT NULL", "streams.stream_id"),
    Stores<&model::GraphLaunchRecord::correlation_id>("correlation_id", "INTEGER NOT NULL", "equals api_calls.correlation_id of the cudaGraphLaunch"),
    Stores<&model::GraphLaunchRecord::graph_id>("graph_id", "INTEGER NOT NULL", "the graph's id (kernels.graph_id in node mode)"),
};
inline constexpr auto kGraphLaunchesColumns = ColumnInfosOf(kGraphLaunchesRecordColumns);

inline constexpr TableInfo kGraphLaunchesTable = {
    .name = "graph_launches",
    .doc = "One row per CUDA graph launch (meta.cuda_graph_trace 'graph': CUPTI's GRAPH_TRACE records);\n"
           "the kernels, copies and memsets of those launches have no rows of their own then.",
    .columns = kGraphLaunchesColumns,
};

inline constexpr ColumnInfo kCountersColumns[] = {
    {"name", "TEXT PRIMARY KEY", "what was counted (rows below)"},
    {"value", "INTEGER NOT NULL", "count"},
};

inline constexpr TableInfo kCountersTable = {
    .name = "counters",
    .doc = "What was lost or left out, counted.",
    .columns = kCountersColumns,
    .trailer = "dropped_records            records CUPTI dropped (it had no buffer for them)\n"
               "kernels_without_timestamp  kernels CUPTI could not time (stored with NULL start/end)\n"
               "copies_without_timestamp   memory copies CUPTI could not time\n"
               "memsets_without_timestamp  memsets CUPTI could not time\n"
               "unknown_records            CUPTI records of kinds gpuscope does not translate\n"
               "unfinished_nvtx_ranges     NVTX ranges started but never ended\n"
               "unreadable_buffers         CUPTI buffers whose rest could not be read or translated\n"
               "                           (the records in that rest are lost; their number is unknown)\n"
               "records_not_written        records the writer received but could not store (I/O error)\n"
               "own_replay_records         records of gpuscope's own replay of profiled launches (source\n"
               "                           counters: its extra launches and synchronisations), left out\n"
               "tracing_paused_ns          ns the tracing kinds were off while gpuscope replayed profiled\n"
               "                           launches (CUPTI's SASS patching counts nothing while they are\n"
               "                           on): work other threads did then is not in the trace\n"
               "stacks_dropped             `--backtrace`: calls whose host stack was not recorded (a\n"
               "                           table in the traced process was full)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kRowOrderColumns[] = {
    {"table_name", "TEXT PRIMARY KEY", "an event table: kernels, memcpys, ..."},
    {"max_lateness_ns", "INTEGER NOT NULL", "ns: no row starts earlier than this before the latest\n"
      "start among the rows inserted before it; 0: the\n"
      "table is in start order. Readers use it to stream rows\n"
      "in start order with a bounded reorder window."},
    {"untimed_rows", "INTEGER NOT NULL", "rows without a timestamp (NULL start)"},
};

inline constexpr TableInfo kRowOrderTable = {
    .name = "row_order",
    .doc = "Per event table, how far out of start order its rows are.",
    .columns = kRowOrderColumns,
    .without_rowid = true,
};
// clang-format on

}  // namespace gpuscope::store
