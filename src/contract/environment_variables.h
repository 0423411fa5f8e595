// Every environment variable gpuscope reads or sets, named once. Most of them are the
// launcher -> injection contract (src/contract/README.md): `gpuscope run` / `gpuscope profile` set
// them in the traced program's environment and libgpuscope_inject.so reads them there. The
// two sides are built from this one list, so a name cannot drift on one side only. The last
// group holds the variables a user sets for one side alone; they are listed here so that
// every GPUSCOPE_* name has one home.
#pragma once

namespace gpuscope::contract {

// --- Read by the CUDA driver, NVTX and the dynamic linker in the traced program ---

// Absolute path of libgpuscope_inject.so; the driver loads it in cuInit.
inline constexpr const char* kCudaInjectionVariable = "CUDA_INJECTION64_PATH";
// libgpuscope_inject.so too: its InitializeInjectionNvtx2 hands NVTX to the libcupti.so.13 the
// process uses. Naming CUPTI's file instead loaded a second CUPTI wherever the program had its
// own (PyTorch's wheel): NVTX's ranges went to a copy nobody traced.
inline constexpr const char* kNvtxInjectionVariable = "NVTX_INJECTION64_PATH";
// Prefixed with the CUPTI directory: CUPTI dlopens libnvperf_* from it.
inline constexpr const char* kLibraryPathVariable = "LD_LIBRARY_PATH";

// --- Tracing (`gpuscope run` and `gpuscope profile`) ---

// The report path pattern, unexpanded (%p %h %q{ENV} %%); each traced process expands it
// with its own pid (report_path_rules.h).
inline constexpr const char* kReportVariable = "GPUSCOPE_REPORT";
// Pid of the program the launcher started; every other process is a child. Set by the
// launcher in the forked child itself, the only place that knows the pid before exec.
inline constexpr const char* kRootPidVariable = "GPUSCOPE_ROOT_PID";
// "1" (default) or "0": whether processes other than the root are traced.
inline constexpr const char* kFollowChildrenVariable = "GPUSCOPE_FOLLOW_CHILDREN";
// "1": overwrite existing reports instead of choosing a free name.
inline constexpr const char* kForceOverwriteVariable = "GPUSCOPE_FORCE_OVERWRITE";
// "private" (default): reports are created 0600; "umask": 0666 less the umask
// (util/report_permissions.h, --report-permissions).
inline constexpr const char* kReportPermissionsVariable = "GPUSCOPE_REPORT_PERMISSIONS";
// "1" (default) or "0": record only between cudaProfilerStart and cudaProfilerStop.
inline constexpr const char* kProfileFromStartVariable = "GPUSCOPE_PROFILE_FROM_START";
// How often, in milliseconds, records are committed to the report (default 500). The
// launcher never sets it: a user's value passes through to the program.
inline constexpr const char* kFlushMsVariable = "GPUSCOPE_FLUSH_MS";
// The file to which each traced process appends its manifest line (manifest_line.h).
inline constexpr const char* kManifestVariable = "GPUSCOPE_MANIFEST";
// "1": no "gpuscope is profiling process" banner on the program's stderr (--quiet, or the
// launcher's output sent to --log-file).
inline constexpr const char* kQuietVariable = "GPUSCOPE_QUIET";
// "1": a short trace of the injection's lifecycle on stderr, and the CLI's step timings.
// Set by the user, read by both sides.
inline constexpr const char* kDebugVariable = "GPUSCOPE_DEBUG";
// "1": the host call stack of each kernel launch, copy, memset and synchronising call
// (`--backtrace`): Python frames in CPython programs, else native return addresses that the
// launcher symbolises after the run. Unset or "0": none.
inline constexpr const char* kBacktraceVariable = "GPUSCOPE_BACKTRACE";

// What is traced and how (util/trace_scope.h; `--trace`, `--api-capture`,
// `--cuda-graph-trace`). The launcher always sets all three, so that a nested `gpuscope run`
// never inherits an outer choice; unset (the library loaded by hand): the defaults.
// The --trace list: "cuda,nvtx" (default), names from util/trace_scope.h kTraceNames.
inline constexpr const char* kTraceVariable = "GPUSCOPE_TRACE";
// "activity" or "callback": how CUDA API calls are captured (default kDefaultApiCapture).
inline constexpr const char* kApiCaptureVariable = "GPUSCOPE_API_CAPTURE";
// "node" (default): every kernel of a graph launch; "graph": one row per graph launch.
inline constexpr const char* kCudaGraphTraceVariable = "GPUSCOPE_CUDA_GRAPH_TRACE";

// --- GPU metrics (`gpuscope run --gpu-metrics`): device-wide counters sampled over the run ---

// The metric set to sample on every device (util/gpu_metric_sets.h); empty or unset: none.
inline constexpr const char* kGpuMetricsSetVariable = "GPUSCOPE_GPU_METRICS_SET";
// Samples per second (default 10000), used only with a set.
inline constexpr const char* kGpuMetricsFrequencyVariable = "GPUSCOPE_GPU_METRICS_FREQUENCY";

// --- Profiling (`gpuscope profile`) ---

// The CUPTI metric names to collect, comma separated, already checked on the chip by the
// CLI; empty: tracing only.
inline constexpr const char* kProfileMetricsVariable = "GPUSCOPE_PROFILE_METRICS";
// Source counters of each profiled launch (`--section SourceCounters`, in --set full): "1"
// runs gpuscope's own replay passes (PC sampling, then SASS patching) before the counter passes;
// unset or "0": none.
inline constexpr const char* kProfileSourceVariable = "GPUSCOPE_PROFILE_SOURCE";
// -k: "name" or "regex:expr" (util/kernel_filter.h).
inline constexpr const char* kKernelNameVariable = "GPUSCOPE_KERNEL_NAME";
// --kernel-name-base: "function", "demangled" or "mangled".
inline constexpr const char* kKernelNameBaseVariable = "GPUSCOPE_KERNEL_NAME_BASE";
// -s N: launches to skip, counted over matching launches only.
inline constexpr const char* kLaunchSkipVariable = "GPUSCOPE_LAUNCH_SKIP";
// -c N: launches to profile, counted over matching launches only.
inline constexpr const char* kLaunchCountVariable = "GPUSCOPE_LAUNCH_COUNT";
// --kernel-id ctx:stream:name:invocation.
inline constexpr const char* kKernelIdVariable = "GPUSCOPE_KERNEL_ID";
// --devices 0,1.
inline constexpr const char* kDevicesVariable = "GPUSCOPE_DEVICES";
// "kernel", "application" or "app-range" (--replay-mode).
inline constexpr const char* kReplayModeVariable = "GPUSCOPE_REPLAY_MODE";
// app-range: the --nvtx-include specs, one per line (util/nvtx_range_filter.h); empty: the
// ranges are cudaProfilerStart/Stop's.
inline constexpr const char* kNvtxIncludeVariable = "GPUSCOPE_NVTX_INCLUDE";
// Kernel replay: "all" (default) flushes the L2 cache before each of gpuscope's own replay
// passes, as ncu's --cache-control all; "none" leaves the caches as the last pass left them.
inline constexpr const char* kCacheControlVariable = "GPUSCOPE_CACHE_CONTROL";
// Kernel replay: "1" (--replay-no-restore) skips saving and restoring device memory around
// gpuscope's own replay passes: the user says the kernel does not change its inputs.
inline constexpr const char* kReplayNoRestoreVariable = "GPUSCOPE_REPLAY_NO_RESTORE";
// Application replay: this run's pass, counted from 0.
inline constexpr const char* kReplayPassVariable = "GPUSCOPE_REPLAY_PASS";
// Application replay: how many runs (passes) the series has.
inline constexpr const char* kReplayPassesVariable = "GPUSCOPE_REPLAY_PASSES";
// Application replay: the directory keeping the counter data between runs
// (inject/app_replay_store.h).
inline constexpr const char* kReplayDirVariable = "GPUSCOPE_REPLAY_DIR";
// The config image the CLI built (and cached) for the chip; the injection reads it instead
// of building it in the program's first profiled launch.
inline constexpr const char* kProfileConfigFileVariable = "GPUSCOPE_PROFILE_CONFIG_FILE";
// The chip that config image was built for.
inline constexpr const char* kProfileChipVariable = "GPUSCOPE_PROFILE_CHIP";
// The number of passes that config image needs.
inline constexpr const char* kProfilePassesVariable = "GPUSCOPE_PROFILE_PASSES";

// The profiling variables, in the order the launcher sets them. The launcher sets every one
// of them (empty when not asked for), so that a `gpuscope run` started inside a profiled
// program's environment never inherits a profiling request.
inline constexpr const char* kProfileVariables[] = {
    kProfileMetricsVariable,    kKernelNameVariable,  kKernelNameBaseVariable, kLaunchSkipVariable,
    kLaunchCountVariable,       kKernelIdVariable,    kDevicesVariable,        kReplayModeVariable,
    kProfileConfigFileVariable, kProfileChipVariable, kProfilePassesVariable,  kReplayPassVariable,
    kReplayPassesVariable,      kReplayDirVariable,   kProfileSourceVariable,
    kCacheControlVariable,      kReplayNoRestoreVariable, kNvtxIncludeVariable,
};

// --- Set by the job's launcher (mpirun, srun, torchrun), read by the injection ---
//
// Where the traced process stands in a job of many processes, recorded in its report
// (process.rank, local_rank, world_size, rank_variable) so that the reports of all ranks can
// be aligned and merged. Each list is in order of precedence: the first variable that is set
// gives the value (Open MPI, then MPICH/Intel MPI's PMI, then Slurm, then PyTorch's torchrun).
// A value that is not a number leaves it unknown (one warning), never falls through to the
// next variable: a launcher that set the first one meant it.

inline constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID",
                                                 "RANK"};
inline constexpr const char* kLocalRankVariables[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "LOCAL_RANK"};
inline constexpr const char* kWorldSizeVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                                      "SLURM_NTASKS", "WORLD_SIZE"};

// --- Read by the JIT compilers in the traced program (source counters) ---
//
// Source counters name the source line of each SASS instruction only where the compiler
// wrote a line table. `gpuscope profile` collecting them (SourceCounters, --set full) sets
// these in the program's environment *only where the user has not set them*: a value the
// user chose, whatever it is, reaches the program unchanged. Only switches that leave the
// generated code as it is belong here; what each framework offers is in
// docs/jit-line-info.md (Numba and CuPy have no such switch: their environment variables
// NUMBA_CUDA_DEBUGINFO and CUPY_CUDA_COMPILE_WITH_DEBUG also turn optimisation off; Numba
// gets its line table from a start-up hook instead, below).

// Triton: "0" keeps the line table in the kernels it compiles (its default); "1" drops it.
inline constexpr const char* kTritonDisableLineInfoVariable = "TRITON_DISABLE_LINE_INFO";

// Numba: no variable reaches numba.cuda.jit's `lineinfo` default, so the launcher puts its
// Python start-up hook (src/injection_library/python/sitecustomize.py, installed as
// <lib>/gpuscope-python) first on PYTHONPATH, the user's own entries after it; the hook
// makes lineinfo=True the default and then runs the sitecustomize it shadows.
inline constexpr const char* kPythonPathVariable = "PYTHONPATH";
inline constexpr const char* kPythonHookDirectoryName = "gpuscope-python";

struct DefaultValue {
  const char* name;
  const char* value;
};
// Name and value of each, in the order the launcher adds them.
inline constexpr DefaultValue kLineInfoDefaults[] = {
    {kTritonDisableLineInfoVariable, "0"},
};

// --- Set by the user for one side only ---

// The CLI: where libgpuscope_inject.so is, for relocated installs (default
// <bin>/../lib/libgpuscope_inject.so).
inline constexpr const char* kInjectionLibraryVariable = "GPUSCOPE_INJECTION_LIBRARY";
// The CLI: the directory holding libcupti.so.13 (default: the toolkit gpuscope was built
// with).
inline constexpr const char* kCuptiDirVariable = "GPUSCOPE_CUPTI_DIR";
// The CLI: where profile config images are cached ("off": no cache; default
// $XDG_CACHE_HOME/gpuscope or ~/.cache/gpuscope).
inline constexpr const char* kCacheDirVariable = "GPUSCOPE_CACHE_DIR";
// The injection, with --gpu-metrics: records each device's PM sampling session into
// <value>.<device> (what CUPTI gave: images, sample times) for the GPU-free tests that play it
// back (tests/cupti/pm_sampling, scripts/record-report-fixtures.sh).
inline constexpr const char* kPmSamplingRecordVariable = "GPUSCOPE_PM_SAMPLING_RECORD";
// The CLI, for the report reader (store::SetReaderThreads): how many threads decode rows
// (0: the reading thread alone; default: all cores but one, at most 8).
inline constexpr const char* kReaderThreadsVariable = "GPUSCOPE_READER_THREADS";
// The CLI, for the source counters' SASS (disassembly/nvdisasm_locator.h): the nvdisasm to
// run, e.g. one of another toolkit (default: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin).
inline constexpr const char* kNvdisasmVariable = "GPUSCOPE_NVDISASM";

// The value of a "1"/"0" variable. (The injection also accepts true/false, yes/no, on/off
// from users who set them by hand.)
inline constexpr const char* FlagValue(bool on) { return on ? "1" : "0"; }

}  // namespace gpuscope::contract
