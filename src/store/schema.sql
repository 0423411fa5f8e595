-- gpuscope report schema, version 4 (version 1 had no profile tables, version 2 no rank
-- identity in `process` and no `clock_samples`, version 3 no call stacks: no `stack_frames`,
-- `modules` or api_calls.stack_id; readers accept all four).
--
-- One SQLite file per traced process. This file and the tables' declarations (every table,
-- listed in src/store/report_tables.h) are THE definition: the report writer embeds this file
-- at build time and executes it on every new report, with every table's CREATE statement,
-- generated from its declaration, where the line `-- @tables` stands. So what is documented
-- here and there is exactly what is in the file. Comments inside CREATE statements are kept by
-- SQLite, so `.schema kernels` in the sqlite3 shell shows each column's meaning.
--
-- Conventions
--   * Times are integer nanoseconds on CUPTI's clock (CLOCK_REALTIME), stored RELATIVE to
--     meta.time_base_ns so that they fit in 6 bytes. NULL means "no timestamp" (CUPTI could
--     not time the activity). The *_v views add time_base_ns back: their start/end columns
--     are absolute and they have a ready-made `duration`.
--   * 64-bit unsigned values (addresses, graph node ids) are stored as the signed integer of
--     the same bits: values at or above 2^63 read as negative in SQL.
--   * Enumerations are small integers; the lookup tables (copy_kinds, memory_kinds, ...)
--     give their names and the views join them in.
--   * Names (kernels, API functions, NVTX ranges and domains, overhead kinds) are interned in
--     `strings`; event rows refer to them by id.
--   * Event tables (kernels ... overheads) get INTEGER PRIMARY KEY rowids in insertion
--     order and no other indexes (they would cost size and write speed). Rows are mostly,
--     not strictly, in start order; `row_order` records how far out of order each table is.
--   * Event tables declare no NOT NULL constraints, for write speed (a constraint makes
--     SQLite keep a statement journal for every multi-row insert). Only the columns
--     documented as nullable (times, nvtx.domain_id) are ever NULL.
--   * Every table is declared once, column by column with its meaning, in the
--     src/store/*_table_defs.h of its family; the event tables' writer inserts and reader
--     decodes come from their declarations too (tests/store/table_declarations_test.cpp).
--
-- Never change a table or a column meaning without raising the schema version (PRAGMA
-- user_version and meta.schema_version below, kSchemaVersion in schema.h).

PRAGMA application_id = 1196446531;  -- 0x47505343, "GPSC": marks the file as a gpuscope report
PRAGMA user_version = 4;             -- the schema version

-- @tables

INSERT INTO meta(key, value) VALUES
  ('format', 'gpuscope-report'),
  ('schema_version', '4'),
  ('gpuscope_version', ''),
  ('time_base_ns', '0'),
  ('finalized', '0'),
  ('closed_by_writer', '0');

-- Filled in when tracing starts:
INSERT INTO process VALUES (1, 0, 0, '', '', NULL, NULL, '', NULL, NULL, NULL, '');

-- The names of the enumerations (the tables are declared in src/store/lookup_table_defs.h).
-- The values are gpuscope's own (src/model/records.h, src/model/profile_records.h).
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
