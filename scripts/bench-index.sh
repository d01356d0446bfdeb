#!/usr/bin/env bash
# Measures the session index (sessionindex/) on generated sessions: build
# time and memory, an Update after an append and with nothing changed, warm
# query latency, and the first query after Open with nothing in the cache.
# Figures, not pass/fail: see sessionindex/README.md.
#
# Environment: SESSIONINDEX_BENCH_MB (default 500) of sessions, generated
# once into SESSIONINDEX_BENCH_DIR (default $TMPDIR/knightcode-sessionindex-bench)
# with the index built from them, both reused by later runs; remove that
# folder to start afresh. BENCH_COUNT (default 1) repeats each benchmark.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
count=${BENCH_COUNT:-1}
run() {
	# nice: the build and the queries use every core they get.
	nice go test -run '^$' -bench "^$1\$" -benchtime "$2" -count "$count" -timeout 60m ./sessionindex
}
run BenchmarkBuild 1x
run BenchmarkUpdateAppend 20x
run BenchmarkUpdateNoChange 20x
run BenchmarkQueryWarm 5x
run BenchmarkQueryCold 10x
