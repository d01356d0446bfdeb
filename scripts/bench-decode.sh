#!/usr/bin/env bash
# Decode throughput of rpcconn against a Node.js client reading the same
# recorded agent stream, measured side by side in one run. Prints MB/s for
# both and the ratio. Usage: scripts/bench-decode.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
stream=rpcconn/testdata/stream-cumulative.jsonl.gz

command -v node >/dev/null || { echo "node is needed for the comparison (./scripts/setup-system.sh installs it)" >&2; exit 1; }

# What a TypeScript client does: decode the bytes, split on LF, JSON.parse
# every record. Best of N rounds.
node_mbps=$(node -e '
const fs = require("fs"), zlib = require("zlib");
const buf = zlib.gunzipSync(fs.readFileSync(process.argv[1]));
const rounds = +process.argv[2]; let best = Infinity, n = 0;
for (let r = 0; r < rounds; r++) {
  const t0 = process.hrtime.bigint(); const s = buf.toString("utf8"); let start = 0, i; n = 0;
  while ((i = s.indexOf("\n", start)) >= 0) { const line = s.slice(start, i); start = i + 1; if (line.trim()) { JSON.parse(line); n++; } }
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
}
console.log((buf.length / best / 1e6).toFixed(1));
' "$stream" "$rounds")

go_out=$(go test -run '^$' -bench '^BenchmarkDecode' -benchtime "${rounds}x" -count 3 ./rpcconn)
echo "$go_out" | grep '^Benchmark'
# Best of the three Go runs, like the best of Node's rounds.
go_mbps=$(echo "$go_out" | awk '/^BenchmarkDecodeCumulative/ { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s" && $i > best) best = $i } END { print best }')

echo
echo "cumulative stream ($(gzip -dc "$stream" | wc -c) bytes, $(gzip -dc "$stream" | wc -l) records)"
echo "  rpcconn: ${go_mbps} MB/s"
echo "  node:    ${node_mbps} MB/s (split + JSON.parse)"
awk -v g="$go_mbps" -v n="$node_mbps" 'BEGIN { printf "  ratio:   %.1fx\n", g / n }'
