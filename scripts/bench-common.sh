# Shared by scripts/bench-*.sh (sourced, not run): locating the built tree, timing a
# command, medians. Every benchmark runs its variants side by side in one run, interleaved
# (the order rotates each repetition), and compares medians.

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${GPUSCOPE_BUILD_DIR:-$bench_root/build}")
python=${GPUSCOPE_PYTHON:-python3}
cupti_dir=${GPUSCOPE_CUPTI_DIR:-/usr/local/cuda/lib64}

bench_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# bench_need <path>...: each must exist in the built tree.
bench_need() {
  local path
  for path in "$@"; do
    [ -e "$path" ] || bench_die "$path is missing: build the tree first (scripts/setup.sh --build-all)"
  done
}

# bench_scratch: a temporary directory, removed at exit unless BENCH_KEEP is set.
bench_scratch() {
  bench_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_bench_XXXXXX")
  if [ -z "${BENCH_KEEP:-}" ]; then trap 'rm -rf "$bench_tmp"' EXIT; fi
}

# bench_time <stdout file> <stderr file> <command...>: runs it, prints the wall time in ns;
# fails (status 1) when the command does.
bench_time() {
  local out=$1 err=$2
  shift 2
  local start end
  start=$(date +%s%N)
  "$@" >"$out" 2>"$err"
  local status=$?
  end=$(date +%s%N)
  if [ $status -ne 0 ]; then
    echo "$(basename "$0"): '$*' failed with status $status; its stderr:" >&2
    tail -20 "$err" >&2
    return 1
  fi
  echo $((end - start))
}

# median < numbers (one per line)
median() {
  sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio <a> <b>: a/b with two decimals ("nan" when b is 0 or missing)
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "nan"; else printf "%.3f", a / b }'
}

# ms <ns>
ms() {
  awk -v ns="$1" 'BEGIN { printf "%.1f", ns / 1e6 }'
}

# value_of <name> <file>: the number after "<name> " on its line in the file.
value_of() {
  sed -n "s/^$1 \\([0-9.eE+-]*\\).*/\\1/p" "$2" | tail -1
}
