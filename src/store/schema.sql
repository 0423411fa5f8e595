-- gpuscope report schema, version 4 (version 1 had no profile tables, version 2 no rank
-- identity in `process` and no `clock_samples`, version 3 no call stacks: no `stack_frames`,
-- `modules` or api_calls.stack_id; readers accept all four).
--
-- One SQLite file per traced process. This file and the event tables' declarations
-- (src/store/event_table_defs.h) are THE definition: the report writer embeds this file at
-- build time and executes it on every new report, with the event tables' CREATE statements,
-- generated from their declarations, where the line `-- @event-tables` stands. So what is
-- documented here and there is exactly what is in the file. Comments inside CREATE statements
-- are kept by SQLite, so `.schema kernels` in the sqlite3 shell shows each column's meaning.
--
-- Conventions
--   * Times are integer nanoseconds on CUPTI's clock (CLOCK_REALTIME), stored RELATIVE to
--     meta.time_base_ns so that they fit in 6 bytes. NULL means "no timestamp" (CUPTI could
--     not time the activity). The *_v views add time_base_ns back: their start/end columns
--     are absolute and they have a ready-made `duration`.
--   * 64-bit unsigned values (addresses, graph node ids) are stored as the signed integer of
--     the same bits: values at or above 2^63 read as negative in SQL.
--   * Enumerations are small integers; the lookup tables at the end (copy_kinds,
--     memory_kinds, ...) give their names and the views join them in.
--   * Names (kernels, API functions, NVTX ranges and domains, overhead kinds) are interned in
--     `strings`; event rows refer to them by id.
--   * Event tables (kernels ... overheads) get INTEGER PRIMARY KEY rowids in insertion
--     order and no other indexes (they would cost size and write speed). Rows are mostly,
--     not strictly, in start order; `row_order` records how far out of order each table is.
--   * Event tables declare no NOT NULL constraints, for write speed (a constraint makes
--     SQLite keep a statement journal for every multi-row insert). Only the columns
--     documented as nullable (times, nvtx.domain_id) are ever NULL.
--   * The event tables are declared once, column by column with its meaning, in
--     src/store/event_table_defs.h: the writer's inserts, the reader's decodes and their
--     CREATE statements all come from there (tests/store/table_declarations_test.cpp).
--
-- Never change a table or a column meaning without raising the schema version (PRAGMA
-- user_version and meta.schema_version below, kSchemaVersion in schema.h).

PRAGMA application_id = 1196446531;  -- 0x47505343, "GPSC": marks the file as a gpuscope report
PRAGMA user_version = 4;             -- the schema version

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,  -- see the rows below
  value TEXT               -- always text; cast numbers with CAST(value AS INTEGER)
  -- format            'gpuscope-report'
  -- schema_version    '4' (equal to PRAGMA user_version)
  -- gpuscope_version  version of the gpuscope that wrote the report, e.g. '0.1.0'
  -- time_base_ns      absolute time (ns, CUPTI clock) that every stored time is relative to
  -- finalized         '1' once the writer closed the report or `gpuscope` finalised it after
  --                   the program ended (even by kill -9); '0' while it is being written
  -- closed_by_writer  '1' once the writer closed the report itself (the process ended
  --                   normally); stays '0' when the process died (kill -9, a crash) and only
  --                   the finaliser ran: the data then ends at the last flush (process.end).
  --                   Absent in reports of older gpuscope versions: unknown.
  -- profile_sections  `gpuscope profile` only: the section identifiers requested, comma
  --                   separated, in print order (written when the metrics are evaluated)
  -- profile_metrics   `gpuscope profile` only: the metrics requested with --metrics, comma
  --                   separated (printed as the section 'Command line profiler metrics')
  -- profile_replay    `gpuscope profile` only: how the launches were replayed, in words (cache
  --                   control, whether device memory was saved and restored between passes)
  -- trace             what was traced (--trace): 'cuda,nvtx', 'cuda', 'cuda-gpu', 'nvtx',
  --                   'none', ... (util/trace_scope.h); absent (reports before version 4):
  --                   everything gpuscope records
  -- api_capture       how API calls were captured (--api-capture): 'activity' (every call
  --                   in api_calls, the runtime's own driver calls marked nested) or
  --                   'callback' (the program's calls in api_calls, the hot no-op calls
  --                   counted in api_call_counts); absent: 'activity'
  -- cuda_graph_trace  'node' (every kernel of a graph launch) or 'graph' (graph_launches,
  --                   no per-node kernels); absent: 'node'
  -- stacks_symbolized `--backtrace` only: '1' once `gpuscope` looked up the native frames'
  --                   functions and lines (after the run, with the modules below)
) WITHOUT ROWID;

INSERT INTO meta(key, value) VALUES
  ('format', 'gpuscope-report'),
  ('schema_version', '4'),
  ('gpuscope_version', ''),
  ('time_base_ns', '0'),
  ('finalized', '0'),
  ('closed_by_writer', '0');

-- The traced process, and where it stands in a job of many processes (ranks): what merging
-- the reports of several processes and hosts needs (clock_samples holds their clocks).
CREATE TABLE process (
  id            INTEGER PRIMARY KEY CHECK (id = 1),  -- always 1: one process per report
  pid           INTEGER NOT NULL,  -- process id of the traced process
  parent_pid    INTEGER NOT NULL,  -- its parent's process id
  hostname      TEXT NOT NULL,     -- host it ran on
  command_line  TEXT NOT NULL,     -- program and arguments, joined by spaces
  start         INTEGER,           -- ns, relative: when tracing began
  "end"         INTEGER,           -- ns, relative: the last flush (NULL: never flushed)
  boot_id       TEXT NOT NULL,     -- /proc/sys/kernel/random/boot_id of the host ('' unknown):
                                   -- equal in two reports = same host, same boot, same clocks
  rank          INTEGER,           -- rank in the job (NULL: unknown), from rank_variable
  local_rank    INTEGER,           -- rank among the job's processes on this host (NULL: unknown)
                                   -- from the first set of OMPI_COMM_WORLD_LOCAL_RANK,
                                   -- MPI_LOCALRANKID, SLURM_LOCALID, LOCAL_RANK
  world_size    INTEGER,           -- processes in the job (NULL: unknown), from the first set of
                                   -- OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS, WORLD_SIZE
  rank_variable TEXT NOT NULL      -- the variable that gave rank, the first set of
                                   -- OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, RANK ('' none)
);
-- Filled in when tracing starts:
INSERT INTO process VALUES (1, 0, 0, '', '', NULL, NULL, '', NULL, NULL, NULL, '');

-- The clocks read together at one moment: when tracing starts, at every flush and at the
-- end. Each moment gives one row for the host (CUPTI's clock with CLOCK_REALTIME and
-- CLOCK_MONOTONIC_RAW) and, from the flushes on, a GPU pair per device with a live context
-- (device_id set): gpu_ns, that GPU's own timestamp (%globaltimer, read by a one-thread kernel
-- of gpuscope's own, left out of the trace), against the host clocks at the middle of the
-- window from before its launch to its value seen, within +- gpu_uncertainty_ns. No GPU pair
-- while a stream capture may be under way, under `gpuscope profile`, or after the GPU read
-- failed once (said on stderr). Reports of one boot of one host (same process.boot_id) share
-- CLOCK_MONOTONIC_RAW; realtime_ns - cupti_ns shows how CUPTI's clock stands to the host's
-- over the run; gpu_ns - realtime_ns how the GPU's clock does (its offset, drift, residual).
CREATE TABLE clock_samples (
  id           INTEGER PRIMARY KEY,  -- insertion order (time order)
  cupti_ns     INTEGER NOT NULL,  -- ns, relative: CUPTI's clock, the clock of every other time
  realtime_ns  INTEGER NOT NULL,  -- ns, absolute: CLOCK_REALTIME, read right after cupti_ns
  monotonic_ns INTEGER NOT NULL,  -- ns, absolute: CLOCK_MONOTONIC_RAW (since boot), read then
  device_id    INTEGER,           -- devices.id of the GPU sampled; NULL: the host clocks only
  gpu_ns       INTEGER,           -- ns, absolute: that GPU's timestamp (%globaltimer);
                                  -- NULL for the host row
  gpu_uncertainty_ns INTEGER      -- ns: gpu_ns was read within +- this of the host clocks of
                                  -- the row (half the host time around the read); NULL for the
                                  -- host row (and in reports written before GPU pairs)
);

-- `gpuscope run --gpu-metrics`: device-wide hardware counters sampled over the run (CUPTI's PM
-- sampling). Reports without these tables (older gpuscope, or written without --gpu-metrics by
-- one) read as "no GPU metrics"; readers check that the tables exist, as for the source tables.
--
-- The metrics sampled on each device, in the order of the values of its samples.
CREATE TABLE gpu_metrics (
  device_id  INTEGER NOT NULL,  -- devices.id
  idx        INTEGER NOT NULL,  -- position of the metric's value in gpu_metric_samples.metric_values
  name       TEXT NOT NULL,     -- CUPTI's metric name, e.g. 'sm__cycles_active.avg.pct_of_peak_sustained_elapsed'
  label      TEXT NOT NULL,     -- what gpuscope calls it, e.g. 'SM Active'
  unit       TEXT NOT NULL,     -- '%', 'byte/second', ...
  role       INTEGER NOT NULL,  -- what the analysis uses it for (GpuMetricRole in
                                -- src/util/gpu_metric_sets.h; 0: nothing in particular)
  PRIMARY KEY (device_id, idx)
) WITHOUT ROWID;

-- One row per sample (10,000 per second per device at the default rate): one row holds all
-- the metrics of the sample, so that a sample costs one insert and streams in time order.
CREATE TABLE gpu_metric_samples (
  id            INTEGER PRIMARY KEY,  -- insertion order (time order per device)
  device_id     INTEGER NOT NULL,     -- devices.id
  start         INTEGER NOT NULL,     -- ns, relative: the sample's start (CUPTI's clock, like kernels)
  "end"         INTEGER NOT NULL,     -- ns, relative: the sample's end
  metric_values BLOB NOT NULL         -- little-endian IEEE 754 doubles, one per gpu_metrics row of
                                      -- the device, in idx order; NaN: CUPTI could not evaluate it
);

-- How sampling went on each device: what was asked, what was kept and what was lost. Never
-- hidden: readers print the losses and the rate that would have fitted.
CREATE TABLE gpu_metric_sampling (
  device_id              INTEGER PRIMARY KEY,  -- devices.id
  chip                   TEXT NOT NULL,     -- e.g. 'GH100'
  set_name               TEXT NOT NULL,     -- --gpu-metrics-set
  interval_ns            INTEGER NOT NULL,  -- asked: 1e9 / --gpu-metrics-frequency
  hardware_buffer_bytes  INTEGER NOT NULL,  -- the buffer the GPU writes samples into
  samples                INTEGER NOT NULL,  -- samples kept (rows in gpu_metric_samples)
  dropped_samples        INTEGER NOT NULL,  -- samples lost (buffer overflow, partly decoded, unevaluable)
  overflows              INTEGER NOT NULL,  -- times the hardware buffer was found overflowed
  fitting_interval_ns    INTEGER NOT NULL,  -- with overflows: an interval whose samples would have
                                            -- fitted (0: unknown)
  status                 TEXT NOT NULL      -- '' sampled; else why nothing (or not all) was sampled
) WITHOUT ROWID;

CREATE TABLE devices (
  id                                INTEGER PRIMARY KEY,  -- CUDA device ordinal
  name                              TEXT NOT NULL,     -- e.g. 'NVIDIA H200'
  uuid                              TEXT NOT NULL,     -- hex
  compute_major                     INTEGER NOT NULL,  -- compute capability, major
  compute_minor                     INTEGER NOT NULL,  -- compute capability, minor
  num_sms                           INTEGER NOT NULL,  -- streaming multiprocessors
  warp_size                         INTEGER NOT NULL,  -- threads per warp
  max_threads_per_block             INTEGER NOT NULL,  -- threads
  max_warps_per_sm                  INTEGER NOT NULL,  -- warps
  max_blocks_per_sm                 INTEGER NOT NULL,  -- thread blocks
  max_registers_per_sm              INTEGER NOT NULL,  -- 32-bit registers
  max_registers_per_block           INTEGER NOT NULL,  -- 32-bit registers
  max_shared_memory_per_sm          INTEGER NOT NULL,  -- bytes
  max_shared_memory_per_block       INTEGER NOT NULL,  -- bytes, without opt-in
  max_shared_memory_per_block_optin INTEGER NOT NULL,  -- bytes, with opt-in
  global_memory_bytes               INTEGER NOT NULL,  -- bytes
  global_memory_bandwidth_kbps      INTEGER NOT NULL,  -- kB/s
  core_clock_khz                    INTEGER NOT NULL,  -- kHz
  l2_cache_bytes                    INTEGER NOT NULL,  -- bytes
  max_ipc                           INTEGER NOT NULL,  -- instructions per cycle (4294967295: unknown)
  ecc_enabled                       INTEGER NOT NULL,  -- 0/1
  mig_enabled                       INTEGER NOT NULL   -- 0/1
);

CREATE TABLE contexts (
  context_id     INTEGER PRIMARY KEY,  -- CUPTI context id
  device_id      INTEGER NOT NULL,     -- devices.id
  null_stream_id INTEGER NOT NULL      -- stream id of the context's default (NULL) stream
);

CREATE TABLE streams (
  stream_id  INTEGER NOT NULL,  -- CUPTI stream id (what event rows call stream_id)
  context_id INTEGER NOT NULL,  -- contexts.context_id
  priority   INTEGER NOT NULL,  -- stream priority (lower is higher priority)
  flags      INTEGER NOT NULL,  -- cudaStreamCreateWithFlags flags (1: non-blocking)
  PRIMARY KEY (context_id, stream_id)
) WITHOUT ROWID;

CREATE TABLE strings (
  id        INTEGER PRIMARY KEY,  -- what *_id / name_id columns refer to
  value     TEXT NOT NULL,        -- the name as recorded (kernel names: mangled)
  demangled TEXT                  -- kernel names only: demangled with the parameter list
                                  -- (equal to value when not a mangled C++ name); else NULL
);

-- Hot no-op API calls (cudaGetDevice, cuCtxGetCurrent, ...: cupti/hot_api_calls.h) counted
-- per thread and function instead of one api_calls row each (meta.api_capture 'callback').
-- Every summary of API calls adds these to the rows of api_calls.
CREATE TABLE api_call_counts (
  thread_id    INTEGER NOT NULL,  -- thread id (as api_calls.thread_id)
  domain       INTEGER NOT NULL,  -- api_domains.id (1 runtime, 2 driver)
  cbid         INTEGER NOT NULL,  -- CUPTI callback id within the domain
  name_id      INTEGER NOT NULL,  -- strings.id of the function name, e.g. 'cudaGetDevice'
  process_id   INTEGER NOT NULL,  -- process id
  calls        INTEGER NOT NULL,  -- how many calls the thread made
  total_ns     INTEGER NOT NULL,  -- their summed duration, ns
  min_ns       INTEGER NOT NULL,  -- the shortest, ns
  max_ns       INTEGER NOT NULL,  -- the longest, ns
  first_start  INTEGER,           -- ns, relative: the first call's start
  last_end     INTEGER,           -- ns, relative: the last call's end
  PRIMARY KEY (thread_id, domain, cbid)
) WITHOUT ROWID;

-- One row per CUDA graph launch (meta.cuda_graph_trace 'graph': CUPTI's GRAPH_TRACE records);
-- the kernels, copies and memsets of those launches have no rows of their own then.
CREATE TABLE graph_launches (
  id             INTEGER PRIMARY KEY,  -- insertion order
  start          INTEGER,  -- ns, relative: the start of the graph's first node
  "end"          INTEGER,  -- ns, relative: the end of its last node
  device_id      INTEGER NOT NULL,  -- devices.id
  context_id     INTEGER NOT NULL,  -- contexts.context_id
  stream_id      INTEGER NOT NULL,  -- streams.stream_id
  correlation_id INTEGER NOT NULL,  -- equals api_calls.correlation_id of the cudaGraphLaunch
  graph_id       INTEGER NOT NULL   -- the graph's id (kernels.graph_id in node mode)
);

-- The event tables, one row per recorded activity, in this order: kernels, memcpys, memsets,
-- memory, syncs, api_calls, nvtx, overheads. Each column and its meaning: event_table_defs.h.
-- @event-tables

CREATE TABLE counters (
  name  TEXT PRIMARY KEY,  -- what was counted (rows below)
  value INTEGER NOT NULL   -- count
  -- dropped_records            records CUPTI dropped (it had no buffer for them)
  -- kernels_without_timestamp  kernels CUPTI could not time (stored with NULL start/end)
  -- copies_without_timestamp   memory copies CUPTI could not time
  -- memsets_without_timestamp  memsets CUPTI could not time
  -- unknown_records            CUPTI records of kinds gpuscope does not translate
  -- unfinished_nvtx_ranges     NVTX ranges started but never ended
  -- unreadable_buffers         CUPTI buffers whose rest could not be read or translated
  --                            (the records in that rest are lost; their number is unknown)
  -- records_not_written        records the writer received but could not store (I/O error)
  -- own_replay_records         records of gpuscope's own replay of profiled launches (source
  --                            counters: its extra launches and synchronisations), left out
  -- tracing_paused_ns          ns the tracing kinds were off while gpuscope replayed profiled
  --                            launches (CUPTI's SASS patching counts nothing while they are
  --                            on): work other threads did then is not in the trace
  -- stacks_dropped             `--backtrace`: calls whose host stack was not recorded (a
  --                            table in the traced process was full)
) WITHOUT ROWID;

-- `gpuscope profile`: kernel launches measured by replay with CUPTI's Range Profiler. The
-- counter data is CUPTI's image as recorded on the GPU; gpuscope evaluates it, also later
-- and on a machine with no GPU (the host API needs only the chip name), into kernel_metrics.
CREATE TABLE profiled_kernels (
  id                INTEGER PRIMARY KEY,  -- insertion order
  profile_index     INTEGER NOT NULL,  -- n-th profiled kernel of the process, from 0 (ncu's ID)
  correlation_id    INTEGER NOT NULL,  -- kernels.correlation_id of the launch
  device_id         INTEGER NOT NULL,  -- devices.id
  context_id        INTEGER NOT NULL,  -- contexts.context_id
  stream_id         INTEGER NOT NULL,  -- streams.stream_id when --kernel-id named a stream, else 0
                                       -- (the launch's stream: kernels.stream_id by correlation_id)
  name_id           INTEGER NOT NULL,  -- strings.id of the kernel name (mangled)
  invocation        INTEGER NOT NULL,  -- n-th launch of this kernel name, selected or not, from 0
  start             INTEGER,           -- ns, relative: the launch call began (host clock)
  "end"             INTEGER,           -- ns, relative: the launch and its replay passes ended
  chip              TEXT NOT NULL,     -- CUPTI's chip name, e.g. 'GH100'
  passes            INTEGER NOT NULL,  -- replay passes the metric configuration needs
  replay_mode       INTEGER NOT NULL,  -- replay_modes.id
  outcome           INTEGER NOT NULL,  -- profile_outcomes.id
  message           TEXT NOT NULL,     -- why the kernel was not measured ('' when it was)
  counter_data      BLOB,              -- CUPTI counter-data image (one range), zlib-compressed;
                                       -- NULL unless outcome is 'measured'
  counter_data_size INTEGER NOT NULL   -- bytes of the image before compression
);

CREATE TABLE kernel_metrics (
  profiled_kernel_id INTEGER NOT NULL,  -- profiled_kernels.id
  metric             TEXT NOT NULL,     -- CUPTI metric name, e.g. 'dram__bytes.sum'
  value              REAL,              -- NULL: CUPTI could not evaluate it from the data
  unit               TEXT NOT NULL,     -- the metric's base unit ('byte', 'cycle', '%', '')
  PRIMARY KEY (profiled_kernel_id, metric)
) WITHOUT ROWID;

-- Source counters (`profile --section SourceCounters`, in --set full): per SASS instruction of
-- each profiled launch, measured by gpuscope's own replay of the launch before its counter
-- passes (device memory saved and restored around each): SASS patching for exact counts, PC
-- sampling for warp stall reasons. Values are CUPTI's, summed over the whole GPU.
CREATE TABLE instruction_values (
  profiled_kernel_id INTEGER NOT NULL,  -- profiled_kernels.id
  cubin_crc          INTEGER NOT NULL,  -- cubins.crc
  function_id        INTEGER NOT NULL,  -- strings.id of the function (mangled) holding the pc
  pc_offset          INTEGER NOT NULL,  -- bytes from that function's first instruction
  metric_id          INTEGER NOT NULL,  -- strings.id of the counter: a SASS metric
                                        -- ('smsp__sass_inst_executed', ...) or a PC-sampling
                                        -- stall reason ('smsp__pcsamp_warps_issue_stalled_...')
  value              INTEGER NOT NULL,  -- executions, sectors, wavefronts or samples
  PRIMARY KEY (profiled_kernel_id, cubin_crc, function_id, pc_offset, metric_id)
) WITHOUT ROWID;

-- The results of `--replay-mode app-range` that are ranges of the program, not launches
-- (profiled_kernels.replay_mode 'app-range': its name is the range's, correlation_id 0, its
-- invocation the n-th range); one row per range. Absent in reports of older gpuscope versions.
CREATE TABLE profiled_ranges (
  profiled_kernel_id INTEGER PRIMARY KEY,  -- profiled_kernels.id
  kernels            INTEGER NOT NULL      -- kernel launches inside the range (last run)
);

-- How the source passes of each profiled launch went; one row per launch they were asked for.
CREATE TABLE kernel_source (
  profiled_kernel_id INTEGER PRIMARY KEY,  -- profiled_kernels.id
  message            TEXT NOT NULL,     -- '' when all was collected; else why not (one line)
  total_samples      INTEGER NOT NULL,  -- PC sampling: samples taken
  dropped_samples    INTEGER NOT NULL,  -- PC sampling: samples lost (hardware buffer full)
  sampling_period    INTEGER NOT NULL   -- PC sampling: log2 of the cycles between samples
);

-- The cubins (ELF images, as the driver loaded them) of the functions in instruction_values,
-- so SASS and source lines can be read back anywhere.
CREATE TABLE cubins (
  crc   INTEGER PRIMARY KEY,  -- CUPTI's cubin CRC (cuptiGetCubinCrc)
  size  INTEGER NOT NULL,     -- bytes of the image before compression
  image BLOB NOT NULL         -- the cubin, zlib-compressed
);

-- Read from the cubins after the run (by the evaluation, on any machine): each instruction's
-- SASS text and source line. Written with kernel_metrics; absent until then.
CREATE TABLE sass_instructions (
  cubin_crc   INTEGER NOT NULL,  -- cubins.crc
  function_id INTEGER NOT NULL,  -- strings.id of the function (mangled)
  pc_offset   INTEGER NOT NULL,  -- bytes from the function's first instruction
  sass        TEXT,              -- e.g. 'DADD R2, R6, R2'; NULL: no disassembler was found
  file_id     INTEGER,           -- source_files.id; NULL: no line information
  line        INTEGER,           -- 1-based line in that file; NULL: no line information
  PRIMARY KEY (cubin_crc, function_id, pc_offset)
) WITHOUT ROWID;

-- The source files named by sass_instructions, with their text when it could be read at
-- evaluation time (NULL: not found there).
CREATE TABLE source_files (
  id      INTEGER PRIMARY KEY,   -- what sass_instructions.file_id names
  path    TEXT NOT NULL UNIQUE,  -- as the line table names it (directory joined)
  content TEXT                   -- the file's text; NULL: not readable when evaluated
);

-- The guided-analysis findings of each measured kernel (src/analysis/rules; `gpuscope rules
-- --list` describes every rule), written with kernel_metrics. Reports written before this table
-- existed lack it; gpuscope creates it when it evaluates such a report again.
CREATE TABLE kernel_findings (
  profiled_kernel_id INTEGER NOT NULL,  -- profiled_kernels.id
  rank               INTEGER NOT NULL,  -- 0 = the finding with the biggest estimated speedup
  rule_id            TEXT NOT NULL,     -- e.g. 'smem_bank_conflicts'
  severity           TEXT NOT NULL,     -- 'OPT' (optimisation), 'INF' (information), 'WRN'
  section            TEXT NOT NULL,     -- ncu section identifier it is printed after
  title              TEXT NOT NULL,     -- e.g. 'Shared Memory Bank Conflicts'
  message            TEXT NOT NULL,     -- with the kernel's own numbers
  speedup_pct        REAL,              -- estimated speedup in %; NULL: no estimate
  speedup_formula    TEXT NOT NULL,     -- how speedup_pct was estimated
  PRIMARY KEY (profiled_kernel_id, rank)
) WITHOUT ROWID;

-- `--backtrace`: the host call stacks of kernel launches, copies, memsets and synchronising
-- calls, each distinct stack stored once; api_calls.stack_id names the stack of a call. A stack
-- is Python frames (CPython programs, while the calling thread held the GIL) or native return
-- addresses; `gpuscope` fills in the native frames' functions and lines after the run from the
-- modules below (meta.stacks_symbolized).
CREATE TABLE stack_frames (
  stack_id    INTEGER NOT NULL,  -- api_calls.stack_id
  depth       INTEGER NOT NULL,  -- 0: the innermost frame (the caller nearest the CUDA call)
  kind        INTEGER NOT NULL,  -- frame_kinds.id (0 native, 1 python)
  address     INTEGER,           -- native: the return address (absolute); NULL for Python
  module_id   INTEGER,           -- native: modules.id of the object holding it, once
                                 -- symbolized; NULL: not yet, or in no recorded module
  function_id INTEGER,           -- strings.id: Python: the code object's (qualified) name;
                                 -- native: the symbol, once symbolized; NULL: not known
  file_id     INTEGER,           -- strings.id of the source file; NULL: not known
  line        INTEGER,           -- source line; 0: not known
  PRIMARY KEY (stack_id, depth)
) WITHOUT ROWID;

CREATE TABLE modules (  -- `--backtrace`: the objects mapped in the process
  id       INTEGER PRIMARY KEY,
  path     TEXT NOT NULL,     -- the program or shared library, as the dynamic linker named it
  start    INTEGER NOT NULL,  -- lowest address of its loaded segments
  "end"    INTEGER NOT NULL,  -- one past the highest
  bias     INTEGER NOT NULL,  -- added to the object's ELF addresses when it was loaded
  build_id TEXT               -- GNU build id, hex; NULL: none
);

CREATE TABLE row_order (
  table_name      TEXT PRIMARY KEY,  -- an event table: kernels, memcpys, ...
  max_lateness_ns INTEGER NOT NULL,  -- ns: no row starts earlier than this before the latest
                                     -- start among the rows inserted before it; 0: the
                                     -- table is in start order. Readers use it to stream rows
                                     -- in start order with a bounded reorder window.
  untimed_rows    INTEGER NOT NULL   -- rows without a timestamp (NULL start)
) WITHOUT ROWID;

-- Names of the enumerations, joined in by the views. The values are gpuscope's own
-- (src/model/records.h, src/model/profile_records.h); the comment after each table names the
-- columns that store them. copy_kinds.label is how nvprof names the copy in its summary.

CREATE TABLE replay_modes (id INTEGER PRIMARY KEY, name TEXT NOT NULL);      -- profiled_kernels.replay_mode
CREATE TABLE profile_outcomes (id INTEGER PRIMARY KEY, name TEXT NOT NULL);  -- profiled_kernels.outcome
CREATE TABLE api_domains (id INTEGER PRIMARY KEY, name TEXT NOT NULL);       -- api_calls.domain
CREATE TABLE copy_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);  -- memcpys.copy_kind
CREATE TABLE memory_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);      -- memcpys.src_kind/dst_kind,
                                                                             -- memsets and memory.memory_kind
CREATE TABLE memory_ops (id INTEGER PRIMARY KEY, name TEXT NOT NULL);        -- memory.op
CREATE TABLE sync_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);        -- syncs.kind
CREATE TABLE nvtx_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);        -- nvtx.kind
CREATE TABLE frame_kinds (id INTEGER PRIMARY KEY, name TEXT NOT NULL);       -- stack_frames.kind

INSERT INTO replay_modes VALUES (1, 'kernel'), (2, 'application'), (3, 'app-range');
INSERT INTO profile_outcomes VALUES
  (0, 'measured'), (1, 'replay failed'), (2, 'range dropped'), (3, 'counters unavailable'),
  (4, 'not replayable');
INSERT INTO api_domains VALUES (1, 'runtime'), (2, 'driver');
INSERT INTO copy_kinds VALUES
  (0, 'Unknown', '[CUDA memcpy Unknown]'), (1, 'HtoD', '[CUDA memcpy HtoD]'),
  (2, 'DtoH', '[CUDA memcpy DtoH]'), (3, 'HtoA', '[CUDA memcpy HtoA]'),
  (4, 'AtoH', '[CUDA memcpy AtoH]'), (5, 'AtoA', '[CUDA memcpy AtoA]'),
  (6, 'AtoD', '[CUDA memcpy AtoD]'), (7, 'DtoA', '[CUDA memcpy DtoA]'),
  (8, 'DtoD', '[CUDA memcpy DtoD]'), (9, 'HtoH', '[CUDA memcpy HtoH]'),
  (10, 'PtoP', '[CUDA memcpy PtoP]');
INSERT INTO memory_kinds VALUES
  (0, 'Unknown'), (1, 'Pageable'), (2, 'Pinned'), (3, 'Device'), (4, 'Array'),
  (5, 'Managed'), (6, 'Device Static'), (7, 'Managed Static');
INSERT INTO memory_ops VALUES (1, 'alloc'), (2, 'free');
INSERT INTO sync_kinds VALUES
  (0, 'Unknown'), (1, 'Event synchronize'), (2, 'Stream wait event'),
  (3, 'Stream synchronize'), (4, 'Context synchronize');
INSERT INTO nvtx_kinds VALUES (0, 'mark'), (1, 'push/pop range'), (2, 'start/end range');
INSERT INTO frame_kinds VALUES (0, 'native'), (1, 'python');

-- Views: names and absolute times joined in, for the sqlite3 shell, e.g.
--   SELECT name, duration FROM kernels_v ORDER BY duration DESC LIMIT 10;
--   SELECT name, count(*), sum(duration) FROM api_calls_v GROUP BY name ORDER BY 3 DESC;

CREATE VIEW time_base AS  -- one row: the absolute time stored times are relative to
  SELECT CAST(value AS INTEGER) AS ns FROM meta WHERE key = 'time_base_ns';

CREATE VIEW process_v AS
  SELECT p.pid, p.parent_pid, p.hostname, p.command_line,
         p.start + t.ns AS start, p."end" + t.ns AS "end", p."end" - p.start AS duration,
         p.boot_id, p.rank, p.local_rank, p.world_size, p.rank_variable
  FROM process p, time_base t;

CREATE VIEW clock_samples_v AS
  SELECT c.id, c.cupti_ns + t.ns AS cupti_ns, c.realtime_ns, c.monotonic_ns, c.device_id,
         c.gpu_ns, c.gpu_uncertainty_ns, c.realtime_ns - (c.cupti_ns + t.ns) AS realtime_minus_cupti,
         c.gpu_ns - c.realtime_ns AS gpu_minus_realtime
  FROM clock_samples c CROSS JOIN time_base t;

CREATE VIEW kernels_v AS
  SELECT k.id, COALESCE(s.demangled, s.value) AS name, s.value AS mangled_name,
         k.start + t.ns AS start, k."end" + t.ns AS "end", k."end" - k.start AS duration,
         k.device_id, k.context_id, k.stream_id, k.correlation_id, k.grid_id,
         k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z,
         k.cluster_x, k.cluster_y, k.cluster_z, k.registers_per_thread,
         k.static_shared_memory, k.dynamic_shared_memory, k.shared_memory_executed,
         k.local_memory_per_thread, k.local_memory_total, k.graph_id, k.graph_node_id,
         k.launch_type, k.cache_config, k.device_launched
  FROM kernels k CROSS JOIN time_base t LEFT JOIN strings s ON s.id = k.name_id;

CREATE VIEW memcpys_v AS
  SELECT m.id, c.label AS name, c.name AS copy_kind,
         m.start + t.ns AS start, m."end" + t.ns AS "end", m."end" - m.start AS duration,
         m.bytes, sk.name AS src_kind, dk.name AS dst_kind, m.is_async,
         m.device_id, m.context_id, m.stream_id, m.correlation_id, m.runtime_correlation_id,
         m.src_device_id, m.dst_device_id, m.graph_id, m.graph_node_id
  FROM memcpys m CROSS JOIN time_base t
       LEFT JOIN copy_kinds c ON c.id = m.copy_kind
       LEFT JOIN memory_kinds sk ON sk.id = m.src_kind
       LEFT JOIN memory_kinds dk ON dk.id = m.dst_kind;

CREATE VIEW memsets_v AS
  SELECT m.id, '[CUDA memset]' AS name,
         m.start + t.ns AS start, m."end" + t.ns AS "end", m."end" - m.start AS duration,
         m.bytes, m.value, mk.name AS memory_kind, m.is_async,
         m.device_id, m.context_id, m.stream_id, m.correlation_id, m.graph_id, m.graph_node_id
  FROM memsets m CROSS JOIN time_base t LEFT JOIN memory_kinds mk ON mk.id = m.memory_kind;

CREATE VIEW memory_v AS
  SELECT m.id, o.name AS op, m.timestamp + t.ns AS timestamp, m.bytes, m.address,
         mk.name AS memory_kind, m.device_id, m.context_id, m.stream_id, m.correlation_id,
         m.is_async, m.pc
  FROM memory m CROSS JOIN time_base t
       LEFT JOIN memory_ops o ON o.id = m.op
       LEFT JOIN memory_kinds mk ON mk.id = m.memory_kind;

CREATE VIEW syncs_v AS
  SELECT y.id, k.name AS kind,
         y.start + t.ns AS start, y."end" + t.ns AS "end", y."end" - y.start AS duration,
         y.context_id, y.stream_id, y.event_id, y.correlation_id
  FROM syncs y CROSS JOIN time_base t LEFT JOIN sync_kinds k ON k.id = y.kind;

CREATE VIEW api_calls_v AS
  SELECT a.id, s.value AS name, d.name AS domain,
         a.start + t.ns AS start, a."end" + t.ns AS "end", a."end" - a.start AS duration,
         a.process_id, a.thread_id, a.correlation_id, a.return_value, a.nested, a.cbid,
         a.stack_id
  FROM api_calls a CROSS JOIN time_base t
       LEFT JOIN strings s ON s.id = a.name_id
       LEFT JOIN api_domains d ON d.id = a.domain;

CREATE VIEW nvtx_v AS
  SELECT n.id, s.value AS name, d.value AS domain, k.name AS kind,
         n.start + t.ns AS start, n."end" + t.ns AS "end", n."end" - n.start AS duration,
         n.process_id, n.thread_id, n.category, n.color, n.range_id
  FROM nvtx n CROSS JOIN time_base t
       LEFT JOIN strings s ON s.id = n.name_id
       LEFT JOIN strings d ON d.id = n.domain_id
       LEFT JOIN nvtx_kinds k ON k.id = n.kind;

CREATE VIEW overheads_v AS
  SELECT o.id, s.value AS name, o.overhead_kind,
         o.start + t.ns AS start, o."end" + t.ns AS "end", o."end" - o.start AS duration,
         o.process_id, o.thread_id
  FROM overheads o CROSS JOIN time_base t LEFT JOIN strings s ON s.id = o.name_id;

CREATE VIEW profiled_kernels_v AS
  SELECT p.id, p.profile_index, s.value AS name, s.demangled, p.invocation, p.correlation_id,
         p.device_id, p.context_id, p.stream_id,
         p.start + t.ns AS start, p."end" + t.ns AS "end", p.chip, p.passes,
         r.name AS replay_mode, o.name AS outcome, p.message, p.counter_data_size
  FROM profiled_kernels p CROSS JOIN time_base t
       LEFT JOIN strings s ON s.id = p.name_id
       LEFT JOIN replay_modes r ON r.id = p.replay_mode
       LEFT JOIN profile_outcomes o ON o.id = p.outcome;
