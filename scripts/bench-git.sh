#!/bin/sh
# Prints what the changes pane and the checkpoints cost on a generated
# repository of 50,000 files with 2,000 changed, each figure beside a plain
# git command on the same repository in the same run (issue 20).
# Options go to gitwork/cmd/gitbench (-files, -changed, -big-lines, -rounds).
set -eu
cd "$(dirname "$0")/.."
exec go run ./gitwork/cmd/gitbench "$@"
