#!/usr/bin/env bash
# How long a newcomer waits (issue 27): a fresh clone of this repository's HEAD, then README's two
# commands timed one after the other, as a newcomer runs them:
#   scripts/setup.sh   the tool (gpuscope, its injection library, the vector-add example) and
#                      its trace; goal: <= 300 s on the 2-core machine, no compiler warning
#   scripts/test.sh    everything else in the same build/, then the GPU-free test suite
# ccache is disabled: the clone must not reuse objects of earlier builds.
#   bench/fresh_clone_setup.sh [--setup-only] [WORKDIR]    (WORKDIR: default a new /tmp dir, kept)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
setup_only=false
if [ "${1:-}" = --setup-only ]; then setup_only=true; shift; fi
work=${1:-$(mktemp -d /tmp/gpuscope-fresh-clone-XXXXXX)}
git clone --quiet --no-hardlinks "$repo" "$work/gpuscope"
cd "$work/gpuscope"
export CCACHE_DISABLE=1
echo "fresh clone of $(git rev-parse --short HEAD) in $work/gpuscope on $(nproc) cores"

start=$SECONDS
scripts/setup.sh >"$work/setup.log" 2>&1 || { tail -20 "$work/setup.log"; echo "setup: FAILED"; exit 1; }
setup_s=$(( SECONDS - start ))
warnings=$(grep -c "warning:" "$work/setup.log" || true)
echo "setup.sh: ${setup_s} s (goal 300 s), ${warnings} compiler warnings; log: $work/setup.log"
$setup_only && exit 0

start=$SECONDS
status=0
scripts/test.sh >"$work/test.log" 2>&1 || status=$?
test_s=$(( SECONDS - start ))
build_s=$(sed -n 's/^test: build took \([0-9]*\) s$/\1/p' "$work/test.log")
summary=$(grep -E "tests passed|tests failed" "$work/test.log" | tail -1 || true)
echo "test.sh: ${test_s} s (of which the build ${build_s:-?} s), exit $status; ${summary}"
echo "both: $(( setup_s + test_s )) s; log: $work/test.log"
exit $status
