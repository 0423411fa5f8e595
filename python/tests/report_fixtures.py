"""Reports for the Python tests, written with Python's sqlite3 into the real schema: the
statements `print_report_schema` prints (schema.sql with the event tables made from their
C++ declarations), so the files are what the writer would create.

`write_rank_reports` is a small synthetic multi-rank job in the shape of the spec's
RankReportsSpec (src/store/testing/rank_reports.h): per step compute kernels with their
launch calls, an NVTX range, then an all-reduce on a second stream that ends at the same true
time on every rank; a straggler arrives late; each host's times are shifted by its clock
offset (the error the alignment must recover).
"""

import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass, field

BASE_NS = 1_700_000_000_000_000_000
GEMM = "_Z11gemm_kernelPKfS0_Pfi"
GEMM_DEMANGLED = "gemm_kernel(const float*, const float*, float*, int)"
ELEMENTWISE = "_Z18elementwise_kernelPfi"
ELEMENTWISE_DEMANGLED = "elementwise_kernel(float*, int)"
ALLREDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def schema_sql():
    program = os.environ.get("GPUSCOPE_PRINT_REPORT_SCHEMA")
    if not program:
        raise RuntimeError("GPUSCOPE_PRINT_REPORT_SCHEMA is not set (CTest sets it: run the "
                           "tests through ctest)")
    return subprocess.run([program], check=True, capture_output=True, text=True).stdout


_EMPTY_REPORTS = {}  # schema text -> an empty report made from it, copied for each new one


def _empty_report(schema):
    if schema not in _EMPTY_REPORTS:
        path = os.path.join(tempfile.mkdtemp(prefix="gpuscope-empty-report-"), "empty.sqlite")
        db = sqlite3.connect(path)
        db.executescript(schema)
        db.close()
        _EMPTY_REPORTS[schema] = path
    return _EMPTY_REPORTS[schema]


class ReportFile:
    """An empty report at `path`, filled by the add_* methods; close() commits."""

    def __init__(self, path, schema, pid=1000, hostname="host0", start=0, end=None,
                 rank=None, boot_id=""):
        shutil.copyfile(_empty_report(schema), path)
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute("UPDATE meta SET value = ? WHERE key = 'time_base_ns'", (str(BASE_NS),))
        self.db.execute("UPDATE meta SET value = '1' WHERE key IN ('finalized', 'closed_by_writer')")
        self.db.execute('UPDATE process SET pid = ?, hostname = ?, command_line = ?, start = ?, '
                        '"end" = ?', (pid, hostname, "train.py", start, end))
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(process)")}
        if "rank" not in columns:
            # A schema from before version 3 (the rank and boot id): the columns as the spec
            # of issue 16 declares them, so that these reports have ranks either way.
            self.db.execute("ALTER TABLE process ADD COLUMN boot_id TEXT")
            self.db.execute("ALTER TABLE process ADD COLUMN rank INTEGER")
        self.db.execute("UPDATE process SET rank = ?, boot_id = ?", (rank, boot_id))
        self.strings = {}
        self.pending = {}
        self.correlation = 0

    def string(self, value, demangled=None):
        if value not in self.strings:
            cursor = self.db.execute("INSERT INTO strings(value, demangled) VALUES (?, ?)",
                                     (value, demangled))
            self.strings[value] = cursor.lastrowid
        return self.strings[value]

    def _insert(self, table, values):
        # Buffered per table and column list, inserted with executemany at close: a
        # benchmark-sized set (scripts/bench-ranks.sh) takes minutes, not hours.
        self.pending.setdefault((table, tuple(values)), []).append(tuple(values.values()))

    def add_api_call(self, name, start, correlation, nested=0, domain=1):
        self._insert("api_calls", {"domain": domain, "cbid": 211, "name_id": self.string(name),
                                   "start": start, "end": start + 1500, "process_id": 1000,
                                   "thread_id": 1, "correlation_id": correlation,
                                   "return_value": 0, "nested": nested})

    def add_launch(self, name, api_start, start, end, stream=7, demangled=None, **extra):
        """A kernel (relative ns) and its cudaLaunchKernel call (none when api_start is
        None), correlated."""
        self.correlation += 1
        if api_start is not None:
            self.add_api_call("cudaLaunchKernel", api_start, self.correlation)
        kernel = {"name_id": self.string(name, demangled or name), "start": start, "end": end,
                  "device_id": 0, "context_id": 1, "stream_id": stream,
                  "correlation_id": self.correlation, "grid_id": self.correlation,
                  "grid_x": 80, "grid_y": 1, "grid_z": 1, "block_x": 256, "block_y": 1,
                  "block_z": 1}
        kernel.update(extra)
        self._insert("kernels", kernel)
        return self.correlation

    def add_memcpy(self, start, end, bytes_=4096):
        self.correlation += 1
        self._insert("memcpys", {"start": start, "end": end, "device_id": 0, "context_id": 1,
                                 "stream_id": 7, "correlation_id": self.correlation,
                                 "copy_kind": 1, "bytes": bytes_})

    def add_memset(self, start, end):
        self.correlation += 1
        self._insert("memsets", {"start": start, "end": end, "device_id": 0, "context_id": 1,
                                 "stream_id": 7, "correlation_id": self.correlation,
                                 "value": 0, "bytes": 4096})

    def add_clock_sample(self, cupti_ns, realtime_ns, device_id=None):
        """One clock_samples row (cupti_ns relative, realtime_ns absolute)."""
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'clock_samples'").fetchone():
            # A schema from before version 3: the table as the spec of issue 16 declares it.
            self.db.execute("CREATE TABLE clock_samples (id INTEGER PRIMARY KEY, cupti_ns INTEGER, "
                            "realtime_ns INTEGER, monotonic_ns INTEGER, device_id INTEGER, "
                            "gpu_ns INTEGER)")
        self._insert("clock_samples", {"cupti_ns": cupti_ns, "realtime_ns": realtime_ns,
                                       "monotonic_ns": 5_000 + cupti_ns, "device_id": device_id,
                                       "gpu_ns": None})

    def add_range(self, name, start, end, domain=None):
        self._insert("nvtx", {"kind": 1, "start": start, "end": end, "range_id": 1,
                              "name_id": self.string(name),
                              "domain_id": None if domain is None else self.string(domain),
                              "process_id": 1000, "thread_id": 1})

    def close(self):
        for (table, columns), rows in self.pending.items():
            names = ", ".join(f'"{k}"' for k in columns)
            marks = ", ".join("?" for _ in columns)
            self.db.executemany(f"INSERT INTO {table}({names}) VALUES ({marks})", rows)
        self.db.commit()
        self.db.close()


@dataclass
class RankJob:
    ranks: int = 8
    ranks_per_host: int = 4
    host_clock_offset_ns: list = field(default_factory=lambda: [0, 7_000_000])
    steps: int = 10
    kernels_per_step: int = 20
    kernel_ns: int = 50_000
    straggler_rank: int = -1
    straggler_delay_ns: int = 0
    seed: int = 1
    jitter_ns: int = None  # per kernel, random up to this; None: kernel_ns // 10
    allreduce_ns: int = 30_000


def _step_kernels(job, rank, step, step_start):
    """Rank `rank`'s compute kernels of step `step` (true time) and when it arrives at the
    step's all-reduce; the same every call (its own random stream), so that no rank's kernels
    are held while the others are planned."""
    rng = random.Random((job.seed * 1_000_003 + rank) * 1_000_003 + step)
    jitter = job.kernel_ns // 10 if job.jitter_ns is None else job.jitter_ns
    t = step_start + 3_000
    kernels = []
    for k in range(job.kernels_per_step):
        length = job.kernel_ns + rng.randrange(0, jitter + 1)
        # The first kernel's launch call starts after the step's gap began (the host was
        # late: idle on the host); the others are queued ahead (idle: other).
        api = t - 2_000 if k == 0 else max(t - 40_000, step_start + 500)
        kernels.append((GEMM if k % 2 == 0 else ELEMENTWISE, api, t, t + length))
        t += length + (1_000 if k % 5 == 4 else 0)
    arrival = t + (job.straggler_delay_ns if rank == job.straggler_rank else 0)
    return kernels, arrival


def write_rank_reports(job, directory, schema):
    """Writes job.ranks reports into `directory`; returns their paths (rank order)."""
    # True time, step by step: the all-reduce ends when the last rank has arrived.
    step_starts, collective_ends = [], []
    step_start = 1_000_000
    for step in range(job.steps):
        arrivals = [_step_kernels(job, r, step, step_start)[1] for r in range(job.ranks)]
        step_starts.append(step_start)
        step_start = max(arrivals) + job.allreduce_ns
        collective_ends.append(step_start)
    paths = []
    for r in range(job.ranks):
        host = r // job.ranks_per_host
        shift = job.host_clock_offset_ns[host] if host < len(job.host_clock_offset_ns) else 0
        path = os.path.join(directory, f"rank{r:04d}.sqlite")
        report = ReportFile(path, schema, pid=2000 + r, hostname=f"node{host:02d}",
                            start=shift, end=step_start + shift + 1_000_000, rank=r,
                            boot_id=f"boot-{host:02d}")
        report.add_memcpy(shift + 500_000, shift + 600_000)
        report.add_memset(shift + 700_000, shift + 720_000)
        for step in range(job.steps):
            kernels, arrival = _step_kernels(job, r, step, step_starts[step])
            end = collective_ends[step]
            report.add_range(f"step {step}", kernels[0][2] + shift, end + shift)
            for name, api, start, stop in kernels:
                demangled = GEMM_DEMANGLED if name == GEMM else ELEMENTWISE_DEMANGLED
                report.add_launch(name, api + shift, start + shift, stop + shift,
                                  demangled=demangled)
            report.add_launch(ALLREDUCE, arrival - 3_000 + shift, arrival + shift, end + shift,
                              stream=13)
        report.close()
        paths.append(path)
    return paths


def main(argv=None):
    """python3 report_fixtures.py -o DIR [--ranks N] [--kernels-per-rank N] ...: a synthetic
    job for scripts/bench-ranks.sh when bench/make_rank_reports is not built."""
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", dest="directory", required=True)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--ranks-per-host", type=int, default=8)
    parser.add_argument("--kernels-per-rank", type=int, default=200)
    parser.add_argument("--kernels-per-step", type=int, default=1000)
    parser.add_argument("--host-offset-spread-ns", type=int, default=2_000_000)
    parser.add_argument("--straggler-rank", type=int, default=-1)
    parser.add_argument("--straggler-delay-ns", type=int, default=0)
    options = parser.parse_args(argv)
    hosts = (options.ranks + options.ranks_per_host - 1) // options.ranks_per_host
    spread = random.Random(hosts)
    offsets = [0] + [spread.randint(-options.host_offset_spread_ns, options.host_offset_spread_ns)
                     for _ in range(hosts - 1)]
    per_step = min(options.kernels_per_step, options.kernels_per_rank)
    job = RankJob(ranks=options.ranks, ranks_per_host=options.ranks_per_host,
                  host_clock_offset_ns=offsets, steps=max(1, options.kernels_per_rank // per_step),
                  kernels_per_step=per_step, straggler_rank=options.straggler_rank,
                  straggler_delay_ns=options.straggler_delay_ns)
    os.makedirs(options.directory, exist_ok=True)
    write_rank_reports(job, options.directory, schema_sql())


if __name__ == "__main__":
    main()
