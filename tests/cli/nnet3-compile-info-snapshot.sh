#!/usr/bin/env bash
# scripts/snapshot-compile-info.sh: nnet3-compile-info's HTML page for the
# Fashion-MNIST recipe's TDNN, rendered by a headless Chromium, is not
# blank. Needs Chromium (scripts/setup.sh installs it; see need in lib.sh).
BIN=$1
. "$(dirname "$0")/lib.sh"
need chromium 'command -v chromium'
bash "$(dirname "$0")/../../scripts/snapshot-compile-info.sh" "$BIN" "$TMP"
status=$?
case $status in
  0) echo "all checks passed" ;;
  *) echo "FAIL: scripts/snapshot-compile-info.sh exited $status" ;;
esac
[ $status -eq 0 ] || exit 1
