#!/usr/bin/env bash
# Compilation benchmark: for every network in configs/ and two request
# shapes, the compile time (cold: the first Compile() of a caching compiler;
# cached: later calls of the same request, i.e. cache hits), with and without
# shortcut compilation, and the commands and peak matrix memory of the
# computation before and after optimization.
#
#   scripts/bench/compile.sh [build-dir]     # default: build
#
# Shapes: "train" = 128 sequences x 8 output frames with model and output
# derivatives (a merged minibatch; the shortcut compiles 2 sequences and
# expands); "infer" = 1 sequence x 50 frames, forward only, model prepared
# for test as nnet3-compute does (no shortcut possible with 1 sequence).
# Cold times are the median over RUNS processes (default 5) of the first
# Compile(); cached times the median of the later ones. Uses
# nnet3-compile-info --show=before-after --format=json --repeat=N; needs
# python3. Prints a table, then one JSON line: {"benchmark": "compile", ...}.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
BIN=$BUILD/bin
RUNS=${RUNS:-5}
REPEAT=${REPEAT:-5}
for p in nnet3-init nnet3-compile-info; do
  [ -x "$BIN/$p" ] || { echo "compile.sh: $BIN/$p not found; build it first (ninja -C $BUILD bin/$p)" >&2; exit 1; }
done
command -v python3 > /dev/null || { echo "compile.sh: python3 is needed" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

declare -A SHAPES=(
  [train]="--num-sequences=128 --frames=8 --need-model-derivative --output-deriv"
  [infer]="--num-sequences=1 --frames=50 --prepare-for-test"
)

for config in "$ROOT"/configs/*.config; do
  net=$(basename "$config" .config)
  "$BIN/nnet3-init" "$config" "$TMP/$net.raw" 2> "$TMP/$net.init.log" ||
    { cat "$TMP/$net.init.log" >&2; exit 1; }
  for shape in train infer; do
    for shortcut in true false; do
      for run in $(seq 1 "$RUNS"); do
        out=$TMP/$net.$shape.$shortcut.$run.json
        # shellcheck disable=SC2086
        "$BIN/nnet3-compile-info" ${SHAPES[$shape]} --compiler.use-shortcut=$shortcut \
          --show=before-after --format=json --repeat="$REPEAT" \
          "$TMP/$net.raw" > "$out" 2> "$TMP/err" ||
          { echo "compile.sh: nnet3-compile-info failed for $net ($shape):" >&2; cat "$TMP/err" >&2; exit 1; }
      done
    done
  done
done

python3 - "$TMP" "$RUNS" "$BUILD" <<'EOF'
import glob, json, os, statistics, sys

tmp, runs, build = sys.argv[1], int(sys.argv[2]), sys.argv[3]
nets = sorted({os.path.basename(p).split('.')[0]
               for p in glob.glob(os.path.join(tmp, '*.json'))})
results = []
for net in nets:
    for shape in ('train', 'infer'):
        r = {'network': net, 'shape': shape}
        for shortcut in ('true', 'false'):
            ds = [json.load(open(os.path.join(
                tmp, '%s.%s.%s.%d.json' % (net, shape, shortcut, i))))
                  for i in range(1, runs + 1)]
            key = 'shortcut' if shortcut == 'true' else 'no_shortcut'
            r['cold_ms_' + key] = 1e3 * statistics.median(
                d['repeat']['seconds'][0] for d in ds)
            r['cached_us_' + key] = 1e6 * statistics.median(
                s for d in ds for s in d['repeat']['seconds'][1:])
            if shortcut == 'true':
                d = ds[0]
                for side in ('before', 'after'):
                    r['commands_' + side] = d[side]['commands']
                    r['matrices_' + side] = d[side]['matrices']
                    r['peak_memory_bytes_' + side] = d[side]['peak_memory_bytes']
                r['misses_shortcut'] = d['repeat']['misses']
        results.append(r)

head = ('%-11s %-6s %15s %19s %14s %14s %12s' %
        ('network', 'shape', 'commands', 'peak MB', 'cold ms', 'cold ms',
         'cached us'))
sub = ('%-11s %-6s %15s %19s %14s %14s %12s' %
       ('', '', 'before->after', 'before->after', 'shortcut', 'no-shortcut',
        'hit'))
print(head)
print(sub)
print('-' * len(head))
for r in results:
    print('%-11s %-6s %6d -> %5d %8.2f -> %7.2f %14.2f %14.2f %12.1f' % (
        r['network'], r['shape'], r['commands_before'], r['commands_after'],
        r['peak_memory_bytes_before'] / 1e6, r['peak_memory_bytes_after'] / 1e6,
        r['cold_ms_shortcut'], r['cold_ms_no_shortcut'],
        r['cached_us_shortcut']))
print(json.dumps({'benchmark': 'compile', 'runs': runs,
                  'build': os.path.basename(os.path.normpath(build)),
                  'results': [{k: (round(v, 3) if isinstance(v, float) else v)
                               for k, v in r.items()} for r in results]}))
EOF
