#!/usr/bin/env bash
# Runs the suite the way a busy machine would: ./scripts/test.sh while two
# busy loops run at the lowest priority (nice 19: they take every idle cycle,
# as other work on a user's or CI's machine does), then go test -count=5 on
# the packages that start processes, under the same load. Use it before a
# submission that touches processes, windows or timing.
#
#   scripts/test-loaded.sh            test.sh under load, then the -count=5 round
#   ROUNDS=3 scripts/test-loaded.sh   test.sh three times in a row first
#
# Every step's output goes to the terminal; the last line counts the rounds.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
ROUNDS=${ROUNDS:-1}
PROCESS_PKGS=(./rpcconn/... ./remote/... ./app ./model)

loops=()
stop_loops() {
	for pid in "${loops[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait "${loops[@]}" 2>/dev/null
}
trap stop_loops EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in 1 2; do
	nice -n 19 sh -c 'while :; do :; done' &
	loops+=($!)
done
echo "test-loaded: two busy loops at nice 19: ${loops[*]}"

passed=0
failed=0
for ((i = 1; i <= ROUNDS; i++)); do
	echo "test-loaded: === round $i of $ROUNDS: ./scripts/test.sh"
	start=$SECONDS
	if ./scripts/test.sh; then
		passed=$((passed + 1))
		echo "test-loaded: round $i green in $((SECONDS - start)) s"
	else
		failed=$((failed + 1))
		echo "test-loaded: round $i FAILED after $((SECONDS - start)) s"
	fi
done

echo "test-loaded: === go test -count=5 ${PROCESS_PKGS[*]}"
# The system packages and pi are there after test.sh; a display is not,
# so the window tests of these packages skip unless DISPLAY is set.
start=$SECONDS
if KNIGHTCODE_PI=$("$repo/scripts/install-pi.sh") go test -tags migrated_fynedo -count=5 -timeout 60m "${PROCESS_PKGS[@]}"; then
	passed=$((passed + 1))
	echo "test-loaded: -count=5 green in $((SECONDS - start)) s"
else
	failed=$((failed + 1))
	echo "test-loaded: -count=5 FAILED after $((SECONDS - start)) s"
fi
echo "$passed passed, $failed failed"
((failed == 0))
