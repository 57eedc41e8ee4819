#!/usr/bin/env bash
# Batched-inference benchmark: nnet3-compute-batch against nnet3-compute on
# a full-size TDNN (40-dim input, 6 x 512 hidden ReLU + batch-norm layers
# spliced as Kaldi's recipes do: {-2..2}, {-1,0,1} x 2, {-3,0,3} x 3;
# 2000 outputs, log-softmax; context 13 + 13) and N random utterances of
# MIN_FRAMES..MAX_FRAMES frames, in the same run, with 1 and 2 BLAS
# threads: input frames per second of each (median over RUNS runs, runs of
# the two programs alternating), the ratio batch / simple, CPU seconds, and
# the peak resident memory (RSS) of each process; then, with perf, the
# share of CPU samples inside OpenBLAS's sgemm (kernel and packing) for
# each program on 1 thread.
#
#   scripts/bench/batch.sh [build-dir]     # default: build
#
# Environment: N (default 200), MIN_FRAMES (300), MAX_FRAMES (1500), RUNS
# (3), THREADS ("1 2"), PROFILE_UTTS (utterances for the perf profile,
# default 40; 0 skips it), OPTS (extra options for both programs, e.g.
# "--frames-per-chunk=50"), BATCH_OPTS (for nnet3-compute-batch only, e.g.
# "--minibatch-size=32").
# Details: both programs use their defaults (--frames-per-chunk=50; batch:
# --minibatch-size=128); the model is prepared for test as both programs
# do (batch-norm folded into the affine layers); the output (N x frames x
# 2000 floats) is written to ark:/dev/null by both, so writing is included
# but no disk. Before timing, the outputs of both on the first 3
# utterances are compared (max |difference| must be < 1e-3). Threads:
# OPENBLAS_NUM_THREADS (the batch tool has a reader and a writer thread on
# top, mostly idle). Peak RSS from /usr/bin/time (GNU time). On a busy
# machine, wall times are noisy: compare the ratios of runs made together.
# Prints a table, then one JSON line: {"benchmark": "batch", ...}.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
BIN=$BUILD/bin
N=${N:-200}
MIN_FRAMES=${MIN_FRAMES:-300}
MAX_FRAMES=${MAX_FRAMES:-1500}
RUNS=${RUNS:-3}
THREADS=${THREADS:-1 2}
PROFILE_UTTS=${PROFILE_UTTS:-40}
OPTS=${OPTS:-}
BATCH_OPTS=${BATCH_OPTS:-}

for p in nnet3-init nnet3-compute nnet3-compute-batch; do
  [ -x "$BIN/$p" ] || { echo "batch.sh: $BIN/$p not found; build it first (ninja -C $BUILD)" >&2; exit 1; }
done
command -v python3 > /dev/null || { echo "batch.sh: python3 is needed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "batch.sh: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "batch.sh: $1 failed:" >&2; tail -5 "$2" >&2; exit 1; }

# The network.
python3 - > "$TMP/tdnn.config" <<'PY'
print('input-node name=input dim=40')
splice = {1: (-2, -1, 0, 1, 2), 2: (-1, 0, 1), 3: (-1, 0, 1),
          4: (-3, 0, 3), 5: (-3, 0, 3), 6: (-3, 0, 3)}
prev, prev_dim = 'input', 40
for l in range(1, 7):
    parts = ['Offset(%s, %d)' % (prev, o) if o else prev for o in splice[l]]
    name = 'tdnn%d' % l
    print('component name=%s.affine type=NaturalGradientAffineComponent '
          'input-dim=%d output-dim=512' % (name, prev_dim * len(parts)))
    print('component-node name=%s.affine component=%s.affine input=Append(%s)'
          % (name, name, ', '.join(parts)))
    for kind, t in (('relu', 'RectifiedLinearComponent'), ('batchnorm', 'BatchNormComponent')):
        src = name + ('.affine' if kind == 'relu' else '.relu')
        print('component name=%s.%s type=%s dim=512' % (name, kind, t))
        print('component-node name=%s.%s component=%s.%s input=%s' % (name, kind, name, kind, src))
    prev, prev_dim = name + '.batchnorm', 512
print('component name=output.affine type=NaturalGradientAffineComponent '
      'input-dim=512 output-dim=2000')
print('component-node name=output.affine component=output.affine input=%s' % prev)
print('component name=output.log-softmax type=LogSoftmaxComponent dim=2000')
print('component-node name=output.log-softmax component=output.log-softmax '
      'input=output.affine')
print('output-node name=output input=output.log-softmax objective=linear')
PY
"$BIN/nnet3-init" "$TMP/tdnn.config" "$TMP/tdnn.raw" 2> "$TMP/init.log" || fail nnet3-init "$TMP/init.log"

# The features: a binary archive, N(0, 1), fixed seed.
python3 - "$N" "$MIN_FRAMES" "$MAX_FRAMES" "$TMP" <<'PY'
import array, random, struct, sys
n, lo, hi, tmp = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(20240)
total = 0
def write(f, key, rows):
    f.write(key.encode() + b' \0BFM \4' + struct.pack('<i', rows) + b'\4' + struct.pack('<i', 40))
    f.write(array.array('f', (random.gauss(0, 1) for _ in range(rows * 40))).tobytes())
with open(tmp + '/feats.ark', 'wb') as f, open(tmp + '/check.ark', 'wb') as c:
    for i in range(n):
        rows = random.randint(lo, hi)
        total += rows
        write(f, 'utt%05d' % i, rows)
    for i in range(3):
        write(c, 'check%d' % i, random.randint(lo, hi))
open(tmp + '/frames', 'w').write(str(total))
PY
FRAMES=$(cat "$TMP/frames")

# Same output on a few utterances.
"$BIN/nnet3-compute" $OPTS "$TMP/tdnn.raw" "ark:$TMP/check.ark" "ark:$TMP/simple.ark" 2> "$TMP/c1.log" || fail nnet3-compute "$TMP/c1.log"
"$BIN/nnet3-compute-batch" $OPTS $BATCH_OPTS "$TMP/tdnn.raw" "ark:$TMP/check.ark" "ark:$TMP/batch.ark" 2> "$TMP/c2.log" || fail nnet3-compute-batch "$TMP/c2.log"
python3 - "$TMP/simple.ark" "$TMP/batch.ark" <<'PY'
import array, struct, sys
def read(p):
    data, out, i = open(p, 'rb').read(), [], 0
    while i < len(data):
        j = data.index(b' ', i)
        key, i = data[i:j], j + 6  # ' \0BFM '
        rows = struct.unpack('<i', data[i + 1:i + 5])[0]
        cols = struct.unpack('<i', data[i + 6:i + 10])[0]
        i += 10
        out.append((key, array.array('f', data[i:i + 4 * rows * cols])))
        i += 4 * rows * cols
    return out
a, b = read(sys.argv[1]), read(sys.argv[2])
assert [k for k, _ in a] == [k for k, _ in b], 'keys differ'
d = max(max(abs(x - y) for x, y in zip(u, v)) for (_, u), (_, v) in zip(a, b))
assert all(len(u) == len(v) for (_, u), (_, v) in zip(a, b)), 'shapes differ'
if d > 1e-3:
    sys.exit('outputs differ by %g' % d)
PY

# Timed runs: A B A B ... per thread count; user and system seconds kept
# apart (system time is mostly page faults of newly mapped blocks).
: > "$TMP/results"
for t in $THREADS; do
  for run in $(seq 1 "$RUNS"); do
    for prog in nnet3-compute nnet3-compute-batch; do
      extra=""; [ "$prog" = nnet3-compute-batch ] && extra=$BATCH_OPTS
      OPENBLAS_NUM_THREADS=$t /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" \
        "$BIN/$prog" $OPTS $extra "$TMP/tdnn.raw" "ark:$TMP/feats.ark" ark:/dev/null \
        2> "$TMP/run.log" || fail "$prog" "$TMP/run.log"
      echo "$t $prog $(cat "$TMP/time")" >> "$TMP/results"
    done
  done
done

# Where the time goes (1 thread): share of samples in OpenBLAS's sgemm.
: > "$TMP/gemm"
if [ "$PROFILE_UTTS" -gt 0 ] && command -v perf > /dev/null &&
   perf record -o "$TMP/probe.data" -- true > /dev/null 2>&1; then
  python3 - "$TMP" "$PROFILE_UTTS" <<'PY'
import sys
tmp, n = sys.argv[1], int(sys.argv[2])
data = open(tmp + '/feats.ark', 'rb').read()
import struct
i = 0
with open(tmp + '/profile.ark', 'wb') as f:
    for _ in range(n):
        j = data.index(b' ', i)
        rows, cols = struct.unpack('<i', data[j + 7:j + 11])[0], 40
        end = j + 16 + 4 * rows * cols
        f.write(data[i:end])
        i = end
PY
  for prog in nnet3-compute nnet3-compute-batch; do
    extra=""; [ "$prog" = nnet3-compute-batch ] && extra=$BATCH_OPTS
    OPENBLAS_NUM_THREADS=1 perf record -F 999 -o "$TMP/$prog.perf" -- \
      "$BIN/$prog" $OPTS $extra "$TMP/tdnn.raw" "ark:$TMP/profile.ark" ark:/dev/null \
      > /dev/null 2>&1 || fail "perf record $prog" /dev/null
    perf report -i "$TMP/$prog.perf" --stdio --no-children --sort sym 2> /dev/null |
      awk -v p="$prog" '/^ +[0-9.]+%/ { v = $1; sub("%", "", v); total += v;
          if ($0 ~ /sgemm/) gemm += v; if (n < 6) { top = top sprintf("%s %s; ", $1, $NF); n++ } }
          END { printf "%s %.1f %s\n", p, gemm / (total > 0 ? total : 1) * 100, top }' >> "$TMP/gemm"
  done
fi

BATCH_OPTS=$BATCH_OPTS python3 - "$TMP/results" "$TMP/gemm" "$FRAMES" "$N" "$BUILD" <<'PY'
import json, os, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
gemm = {l.split()[0]: (float(l.split()[1]), ' '.join(l.split()[2:])) for l in open(sys.argv[2]) if l.strip()}
frames, n, build = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
res = {}
for t, prog, wall, user, sys_s, rss in rows:
    r = res.setdefault((int(t), prog), {'wall': [], 'user': [], 'sys': [], 'rss': []})
    r['wall'].append(float(wall)); r['user'].append(float(user)); r['sys'].append(float(sys_s))
    r['rss'].append(int(rss))
print('%d utterances, %d frames; median of %d runs' % (n, frames, len(next(iter(res.values()))['wall'])))
print('%-8s %-20s %12s %10s %10s %10s %12s %8s' % ('threads', 'program', 'frames/s', 'wall s', 'user s', 'sys s', 'peak RSS MB', 'ratio'))
out = []
for (t, prog) in sorted(res):
    r = res[(t, prog)]
    wall = statistics.median(r['wall'])
    fps = frames / wall
    simple = frames / statistics.median(res[(t, 'nnet3-compute')]['wall'])
    entry = {'threads': t, 'program': prog, 'frames_per_second': round(fps, 1),
             'wall_seconds': round(wall, 2), 'user_seconds': round(statistics.median(r['user']), 2),
             'sys_seconds': round(statistics.median(r['sys']), 2),
             'peak_rss_mb': round(max(r['rss']) / 1024.0, 1), 'ratio_to_nnet3_compute': round(fps / simple, 3)}
    out.append(entry)
    print('%-8d %-20s %12.1f %10.2f %10.2f %10.2f %12.1f %8.3f' % (t, prog, fps, wall, entry['user_seconds'],
          entry['sys_seconds'], entry['peak_rss_mb'], entry['ratio_to_nnet3_compute']))
for prog, (share, top) in sorted(gemm.items()):
    print('%s, 1 thread: %.1f%% of CPU samples in sgemm; top: %s' % (prog, share, top))
print(json.dumps({'benchmark': 'batch', 'utterances': n, 'frames': frames,
                  'batch_opts': os.environ.get('BATCH_OPTS', ''),
                  'build': os.path.basename(os.path.normpath(build)), 'results': out,
                  'gemm_share_percent': {p: g for p, (g, _) in gemm.items()}}))
PY
