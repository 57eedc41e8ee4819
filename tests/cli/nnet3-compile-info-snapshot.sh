#!/usr/bin/env bash
# scripts/snapshot-compile-info.sh: nnet3-compile-info's HTML page for the
# Fashion-MNIST recipe's TDNN, rendered by a headless Chromium, is not
# blank. Skipped (77) where Chromium is not installed and cannot be.
BIN=$1
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
bash "$(dirname "$0")/../../scripts/snapshot-compile-info.sh" "$BIN" "$OUT"
status=$?
case $status in
  0) echo "all checks passed" ;;
  77) echo "skipped: no Chromium" ;;
  *) echo "FAIL: scripts/snapshot-compile-info.sh exited $status" ;;
esac
exit $status
