// The report's event tables, each declared once: the table (its name, what a row is, the model
// record it stores, the row type the reader streams, the column its rows are ordered by) and its
// columns in schema order after the `id` rowid, each with its documentation, how it is
// stored and the member it holds (event_column.h). The writer's binds, the reader's decodes,
// `row_order` and the tables' CREATE statements (create_table_sql.h, executed where
// schema.sql says `-- @event-tables`) all derive from these declarations (event_tables.h).
//
// A new column: one line in kEventColumns and a round-trip test (and a schema version that
// says so).
#pragma once

#include <string_view>
#include <tuple>

#include "model/records.h"
#include "store/event_rows.h"
#include "store/event_column.h"

namespace gpuscope::store {

using model::ApiCallRecord;
using model::KernelRecord;
using model::MemcpyRecord;
using model::MemoryRecord;
using model::MemsetRecord;
using model::NvtxRecord;
using model::OverheadRecord;
using model::SyncRecord;

// A table stores one model record per row; the reader streams Row (the record itself
// unless the table stores more than the record, see event_rows.h).
template <typename RecordType, typename RowType = RecordType>
struct TableOf {
  using Record = RecordType;
  using Row = RowType;
  static constexpr std::string_view kStartColumn = "start";
};

// clang-format off
struct Kernels : TableOf<KernelRecord, KernelRow> {
  static constexpr std::string_view kName = "kernels";
  static constexpr std::string_view kDoc = "One row per kernel executed on a GPU.";
};
struct Memcpys : TableOf<MemcpyRecord> {
  static constexpr std::string_view kName = "memcpys";
  static constexpr std::string_view kDoc = "One row per memory copy.";
};
struct Memsets : TableOf<MemsetRecord> {
  static constexpr std::string_view kName = "memsets";
  static constexpr std::string_view kDoc = "One row per memset.";
};
struct Memory : TableOf<MemoryRecord> {
  static constexpr std::string_view kName = "memory";
  static constexpr std::string_view kDoc = "One row per device memory allocation or free.";
  static constexpr std::string_view kStartColumn = "timestamp";
};
struct Syncs : TableOf<SyncRecord> {
  static constexpr std::string_view kName = "syncs";
  static constexpr std::string_view kDoc = "One row per synchronisation: an event, stream or context synchronize, a stream wait.";
};
struct ApiCalls : TableOf<ApiCallRecord, ApiCallRow> {
  static constexpr std::string_view kName = "api_calls";
  static constexpr std::string_view kDoc = "One row per CUDA runtime or driver API call.";
};
struct Nvtx : TableOf<NvtxRecord> {
  static constexpr std::string_view kName = "nvtx";
  static constexpr std::string_view kDoc = "One row per NVTX mark or range.";
};
struct Overheads : TableOf<OverheadRecord> {
  static constexpr std::string_view kName = "overheads";
  static constexpr std::string_view kDoc = "One row per span of CUPTI's own overhead.";
};

// The columns of every event table, table by table. The class of a column's member says
// which table it belongs to (its Record, or its Row for kWriterFlag); within a table the
// order here is the schema's column order.
inline constexpr auto kEventColumns = std::tuple{
    // kernels
    KernelName<&KernelRecord::mangled_name>("name_id", "strings.id of the kernel name"),
    Time<&KernelRecord::start>("start", "ns, relative"),
    Time<&KernelRecord::end>("end", "ns, relative"),
    Int<&KernelRecord::device_id>("device_id", "devices.id"),
    Int<&KernelRecord::context_id>("context_id", "contexts.context_id"),
    Int<&KernelRecord::stream_id>("stream_id", "streams.stream_id"),
    Int<&KernelRecord::correlation_id>("correlation_id", "equals api_calls.correlation_id of the launch"),
    Int<&KernelRecord::grid_id>("grid_id", "unique id of the launch on its device"),
    Int<&KernelRecord::grid_x>("grid_x", "grid size in x, blocks"),
    Int<&KernelRecord::grid_y>("grid_y", "grid size in y, blocks"),
    Int<&KernelRecord::grid_z>("grid_z", "grid size in z, blocks"),
    Int<&KernelRecord::block_x>("block_x", "block size in x, threads"),
    Int<&KernelRecord::block_y>("block_y", "block size in y, threads"),
    Int<&KernelRecord::block_z>("block_z", "block size in z, threads"),
    Int<&KernelRecord::cluster_x>("cluster_x", "cluster size in x, blocks (0: no clusters)"),
    Int<&KernelRecord::cluster_y>("cluster_y", "cluster size in y, blocks"),
    Int<&KernelRecord::cluster_z>("cluster_z", "cluster size in z, blocks"),
    Int<&KernelRecord::registers_per_thread>("registers_per_thread", "32-bit registers per thread"),
    Int<&KernelRecord::static_shared_memory>("static_shared_memory", "bytes per block"),
    Int<&KernelRecord::dynamic_shared_memory>("dynamic_shared_memory", "bytes per block"),
    Int<&KernelRecord::shared_memory_executed>("shared_memory_executed", "bytes: the SM shared memory carveout used"),
    Int<&KernelRecord::local_memory_per_thread>("local_memory_per_thread", "bytes of local memory per thread"),
    Int<&KernelRecord::local_memory_total>("local_memory_total", "bytes reserved for the launch"),
    Int<&KernelRecord::graph_id>("graph_id", "CUDA graph id (0: not launched from a graph)"),
    Int<&KernelRecord::graph_node_id>("graph_node_id", "graph node id (0: not from a graph)"),
    Int<&KernelRecord::launch_type>("launch_type", "0 regular, 1 cooperative single, 2 multi device"),
    Int<&KernelRecord::cache_config>("cache_config", "requested/executed cache config, CUPTI's packing"),
    Int<&KernelRecord::device_launched>("device_launched", "1: launched from the device (dynamic parallelism)"),
    // memcpys
    Time<&MemcpyRecord::start>("start", "ns, relative"),
    Time<&MemcpyRecord::end>("end", "ns, relative"),
    Int<&MemcpyRecord::device_id>("device_id", "devices.id"),
    Int<&MemcpyRecord::context_id>("context_id", "contexts.context_id"),
    Int<&MemcpyRecord::stream_id>("stream_id", "streams.stream_id"),
    Int<&MemcpyRecord::correlation_id>("correlation_id", "equals api_calls.correlation_id (driver call)"),
    Int<&MemcpyRecord::runtime_correlation_id>("runtime_correlation_id", "correlation id of the runtime call, 0 if none"),
    Int<&MemcpyRecord::copy_kind>("copy_kind", "copy_kinds.id (1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP..)"),
    Int<&MemcpyRecord::src_kind>("src_kind", "memory_kinds.id of the source"),
    Int<&MemcpyRecord::dst_kind>("dst_kind", "memory_kinds.id of the destination"),
    Int<&MemcpyRecord::is_async>("is_async", "0/1"),
    Int<&MemcpyRecord::bytes>("bytes", "bytes copied"),
    Int<&MemcpyRecord::src_device_id>("src_device_id", "peer copies only: source device"),
    Int<&MemcpyRecord::dst_device_id>("dst_device_id", "peer copies only: destination device"),
    Int<&MemcpyRecord::graph_id>("graph_id", "CUDA graph id (0: not from a graph)"),
    Int<&MemcpyRecord::graph_node_id>("graph_node_id", "graph node id (0: not from a graph)"),
    // memsets
    Time<&MemsetRecord::start>("start", "ns, relative"),
    Time<&MemsetRecord::end>("end", "ns, relative"),
    Int<&MemsetRecord::device_id>("device_id", "devices.id"),
    Int<&MemsetRecord::context_id>("context_id", "contexts.context_id"),
    Int<&MemsetRecord::stream_id>("stream_id", "streams.stream_id"),
    Int<&MemsetRecord::correlation_id>("correlation_id", "equals api_calls.correlation_id"),
    Int<&MemsetRecord::value>("value", "the value set"),
    Int<&MemsetRecord::memory_kind>("memory_kind", "memory_kinds.id"),
    Int<&MemsetRecord::is_async>("is_async", "0/1"),
    Int<&MemsetRecord::bytes>("bytes", "bytes set"),
    Int<&MemsetRecord::graph_id>("graph_id", "CUDA graph id (0: not from a graph)"),
    Int<&MemsetRecord::graph_node_id>("graph_node_id", "graph node id (0: not from a graph)"),
    // memory
    Time<&MemoryRecord::timestamp>("timestamp", "ns, relative: when the allocation or free happened"),
    Int<&MemoryRecord::op>("op", "memory_ops.id (1 alloc, 2 free)"),
    Int<&MemoryRecord::memory_kind>("memory_kind", "memory_kinds.id"),
    Int<&MemoryRecord::address>("address", "device address"),
    Int<&MemoryRecord::bytes>("bytes", "bytes"),
    Int<&MemoryRecord::device_id>("device_id", "devices.id"),
    Int<&MemoryRecord::context_id>("context_id", "contexts.context_id"),
    Int<&MemoryRecord::stream_id>("stream_id", "stream of an async operation (4294967295: synchronous)"),
    Int<&MemoryRecord::correlation_id>("correlation_id", "equals api_calls.correlation_id"),
    Int<&MemoryRecord::is_async>("is_async", "0/1 (cudaMallocAsync / cudaFreeAsync)"),
    Int<&MemoryRecord::pc>("pc", "program counter of the allocating call"),
    // syncs
    Time<&SyncRecord::start>("start", "ns, relative"),
    Time<&SyncRecord::end>("end", "ns, relative"),
    Int<&SyncRecord::kind>("kind", "sync_kinds.id"),
    Int<&SyncRecord::context_id>("context_id", "contexts.context_id"),
    Int<&SyncRecord::stream_id>("stream_id", "streams.stream_id (stream syncs and waits)"),
    Int<&SyncRecord::event_id>("event_id", "CUDA event id (event syncs and waits)"),
    Int<&SyncRecord::correlation_id>("correlation_id", "equals api_calls.correlation_id"),
    // api_calls
    Int<&ApiCallRecord::domain>("domain", "api_domains.id (1 runtime, 2 driver)"),
    Int<&ApiCallRecord::cbid>("cbid", "CUPTI callback id within the domain"),
    Name<&ApiCallRecord::name>("name_id", "strings.id of the function name, e.g. 'cudaMalloc'"),
    Time<&ApiCallRecord::start>("start", "ns, relative"),
    Time<&ApiCallRecord::end>("end", "ns, relative"),
    Int<&ApiCallRecord::process_id>("process_id", "process id"),
    Int<&ApiCallRecord::thread_id>("thread_id", "thread id as CUPTI reports it"),
    Int<&ApiCallRecord::correlation_id>("correlation_id", "links the call to the GPU activity it started"),
    Int<&ApiCallRecord::return_value>("return_value", "cudaError_t / CUresult (0: success)"),
    WriterFlag<&ApiCallRow::nested_in_runtime>("nested", "1: a driver call made inside a runtime call on the same\n"
                                                    "thread (nvprof's summary counts only the outer call)"),
    OptionalInt<&ApiCallRecord::stack_id>("stack_id", "stack_frames.stack_id of the host call stack (--backtrace);\n"
                                                      "NULL: none recorded"),
    // nvtx
    Int<&NvtxRecord::kind>("kind", "nvtx_kinds.id (0 mark, 1 push/pop range, 2 start/end range)"),
    Time<&NvtxRecord::start>("start", "ns, relative"),
    Time<&NvtxRecord::end>("end", "ns, relative; equals start for marks, NULL: never ended"),
    Int<&NvtxRecord::id>("range_id", "CUPTI's marker id"),
    Name<&NvtxRecord::name>("name_id", "strings.id of the message"),
    OptionalName<&NvtxRecord::domain>("domain_id", "strings.id of the NVTX domain, NULL: the default domain"),
    Int<&NvtxRecord::process_id>("process_id", "process id"),
    Int<&NvtxRecord::thread_id>("thread_id", "thread that pushed / started the range"),
    Int<&NvtxRecord::category>("category", "NVTX category (0: none)"),
    Int<&NvtxRecord::color>("color", "ARGB (0: unset)"),
    // overheads
    Time<&OverheadRecord::start>("start", "ns, relative"),
    Time<&OverheadRecord::end>("end", "ns, relative"),
    Int<&OverheadRecord::overhead_kind>("overhead_kind", "CUPTI_ACTIVITY_OVERHEAD_* value"),
    Name<&OverheadRecord::name>("name_id", "strings.id of the overhead kind's name"),
    Int<&OverheadRecord::process_id>("process_id", "process id"),
    Int<&OverheadRecord::thread_id>("thread_id", "thread id"),
};
// clang-format on

}  // namespace gpuscope::store
