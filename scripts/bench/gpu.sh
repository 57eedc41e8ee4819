#!/usr/bin/env bash
# GPU benchmark, on the full-size TDNN of scripts/bench/batch.sh (40-dim
# input, 6 x 512 ReLU + batch-norm layers spliced {-2..2}, {-1,0,1} x 2,
# {-3,0,3} x 3; 2000 outputs, log-softmax) and a TDNN-F of similar size
# (a 512 ReLU + batch-norm layer, then 5 factorized layers 512 -> 128 -> 512
# at time strides 1,1,1,3,3 with 0.66 bypasses, a 512 -> 128 -> 512
# prefinal layer, 2000 outputs), in one run:
#  - inference: nnet3-compute-batch --use-gpu=yes frames/s at
#    --minibatch-size 32, 128 and 512 (end to end: reading the features,
#    writing the 2000-dim outputs to ark:/dev/null; start-up is taken out by
#    timing a run on a tenth of the data too and using the difference);
#  - the computation alone (gpu-bench: one minibatch's forward pass on
#    device data, no host I/O) and, in the same process, the time cuBLAS
#    alone needs for the same GEMMs: the network's GEMM bound; ours as a
#    fraction of it (the target is >= 0.7 at minibatch 128);
#  - the ratio of GPU to CPU throughput: nnet3-compute-batch --use-gpu=no at
#    minibatch 128 on part of the data;
#  - training: nnet3-train --use-gpu=yes frames/s on 128 x 8-frame
#    minibatches of the TDNN (start-up taken out the same way), and the
#    ratio to --use-gpu=no on a few of them.
# Parts whose programs or components are missing from this build
# (nnet3-compute-batch; TdnnComponent for the TDNN-F) are skipped with a
# note saying so. Prints a table, then one JSON line {"benchmark": "gpu"}.
#
#   scripts/bench/gpu.sh [build-dir]      # default: build
#
# Environment: UTTS (utterances for the GPU runs, default 3000: about 2.7M
# frames, 50 distinct ones repeated), CPU_UTTS (100), TRAIN_MB (minibatches
# of 128 egs for GPU training, default 60), CPU_TRAIN_MB (6), SIZES
# ("32 128 512"), REPEATS (gpu-bench repeats, 30). Needs python3.
# NNET3_DEBUG_OPAQUE_DEVICE=1 runs it on the opaque debugging device (the
# CPU) instead of a GPU: a check of the script itself, with tiny sizes.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
BIN=$BUILD/bin
BENCH=$BUILD/tests/gpu/gpu-bench
UTTS=${UTTS:-3000}
CPU_UTTS=${CPU_UTTS:-100}
TRAIN_MB=${TRAIN_MB:-60}
CPU_TRAIN_MB=${CPU_TRAIN_MB:-6}
SIZES=${SIZES:-32 128 512}
REPEATS=${REPEATS:-30}

for p in nnet3-init nnet3-train nnet3-get-egs nnet3-merge-egs nnet3-subset-egs copy-feats cuda-compiled; do
  [ -x "$BIN/$p" ] || { echo "gpu.sh: $BIN/$p not found; build it first" >&2; exit 1; }
done
command -v python3 > /dev/null || { echo "gpu.sh: python3 is needed" >&2; exit 1; }
if [ "${NNET3_DEBUG_OPAQUE_DEVICE:-0}" != 1 ] && ! "$BIN/cuda-compiled"; then
  echo "gpu.sh: this build has no CUDA backend (configure with -Dcuda=enabled)" >&2
  exit 77
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "gpu.sh: $1 failed:" >&2; tail -5 "$2" >&2; exit 1; }
notes=()
now() { date +%s.%N; }

# ---- the networks ----
python3 "$ROOT/scripts/bench/bench_nets.py" "$TMP"
nets=(tdnn)
"$BIN/nnet3-init" "$TMP/tdnn.config" "$TMP/tdnn.raw" 2> "$TMP/init.log" || fail nnet3-init "$TMP/init.log"
if "$BIN/nnet3-init" "$TMP/tdnnf.config" "$TMP/tdnnf.raw" 2> "$TMP/initf.log"; then
  nets+=(tdnnf)
else
  notes+=("TDNN-F skipped: nnet3-init cannot build it in this build ($(grep -m1 -o 'ERROR.*' "$TMP/initf.log" | cut -c1-120))")
fi

# ---- features (50 distinct utterances, repeated through scp) and labels ----
python3 - "$TMP" <<'PY'
import array, random, struct, sys
tmp = sys.argv[1]
random.seed(20241)
with open(tmp + '/feats.ark', 'wb') as f, open(tmp + '/post.txt', 'w') as p:
    for i in range(50):
        rows = random.randint(300, 1500)
        f.write(b'u%02d \0BFM \4' % i + struct.pack('<i', rows) + b'\4' + struct.pack('<i', 40))
        f.write(array.array('f', (random.gauss(0, 1) for _ in range(rows * 40))).tobytes())
        p.write('u%02d %s\n' % (i, ' '.join('[ %d 1 ]' % random.randrange(2000) for _ in range(rows))))
PY
"$BIN/copy-feats" ark:"$TMP/feats.ark" ark,scp:"$TMP/f.ark","$TMP/f.scp" 2> "$TMP/cf.log" || fail copy-feats "$TMP/cf.log"
python3 - "$TMP" "$UTTS" "$CPU_UTTS" <<'PY'
import sys
tmp, n, n_cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [l.split() for l in open(tmp + '/f.scp')]
frames = {}
import struct
for key, loc in lines:
    path, off = loc.rsplit(':', 1)
    with open(path, 'rb') as f:
        f.seek(int(off))
        h = f.read(15)
        frames[key] = struct.unpack('<i', h[6:10])[0]
def write(name, count):
    total = 0
    with open(tmp + '/' + name + '.scp', 'w') as out:
        for i in range(count):
            key, loc = lines[i % len(lines)]
            out.write('utt%05d %s\n' % (i, loc))
            total += frames[key]
    open(tmp + '/' + name + '.frames', 'w').write(str(total))
write('big', n)
write('small', max(1, n // 10))
write('cpu', n_cpu)
PY

# time_run LOG CMD...: seconds taken (fails the benchmark if CMD fails).
time_run() {
  local log=$1; shift
  local t0 t1
  t0=$(now)
  "$@" 2> "$log" || fail "$1" "$log"
  t1=$(now)
  python3 -c "print($t1 - $t0)"
}
: > "$TMP/results"
frames() { cat "$TMP/$1.frames"; }

# ---- inference ----
have_batch=0
[ -x "$BIN/nnet3-compute-batch" ] && have_batch=1
[ "$have_batch" = 1 ] || notes+=("nnet3-compute-batch not built: end-to-end inference and the CPU ratio skipped")
for net in "${nets[@]}"; do
  if [ "$have_batch" = 1 ]; then
    for mb in $SIZES; do
      ts=$(time_run "$TMP/b.log" "$BIN/nnet3-compute-batch" --use-gpu=yes --minibatch-size="$mb" "$TMP/$net.raw" scp:"$TMP/small.scp" ark:/dev/null)
      tb=$(time_run "$TMP/b.log" "$BIN/nnet3-compute-batch" --use-gpu=yes --minibatch-size="$mb" "$TMP/$net.raw" scp:"$TMP/big.scp" ark:/dev/null)
      echo "$net infer_gpu $mb $(frames big) $(frames small) $tb $ts" >> "$TMP/results"
    done
    tc=$(time_run "$TMP/c.log" "$BIN/nnet3-compute-batch" --use-gpu=no --minibatch-size=128 "$TMP/$net.raw" scp:"$TMP/cpu.scp" ark:/dev/null)
    echo "$net infer_cpu 128 $(frames cpu) 0 $tc 0" >> "$TMP/results"
  fi
  if [ -x "$BENCH" ]; then
    "$BENCH" --repeats="$REPEATS" "$TMP/$net.raw" $SIZES 2> "$TMP/bench.log" > "$TMP/bench.out" || fail gpu-bench "$TMP/bench.log"
    grep '^{' "$TMP/bench.out" | sed "s/^/$net json /" >> "$TMP/results"
  else
    notes+=("gpu-bench not built ($BENCH): computation-only figures and the GEMM bound skipped")
  fi
done

# ---- training: 128 x 8-frame minibatches of the TDNN ----
"$BIN/nnet3-get-egs" --num-pdfs=2000 --left-context=13 --right-context=13 --num-frames=8 \
  ark:"$TMP/feats.ark" ark,t:"$TMP/post.txt" ark:"$TMP/egs.ark" 2> "$TMP/egs.log" || fail nnet3-get-egs "$TMP/egs.log"
"$BIN/nnet3-merge-egs" --minibatch-size=128 ark:"$TMP/egs.ark" ark:"$TMP/mb.ark" 2> "$TMP/m.log" || fail nnet3-merge-egs "$TMP/m.log"
# "Processed E egs ... into N minibatches ... Avg minibatch size was S"
read -r n_mb avg_mb < <(sed -n 's/.* into \([0-9]*\) minibatches.*size was \([0-9.]*\).*/\1 \2/p' "$TMP/m.log")
mb_frames=$(python3 -c "print(int(round($n_mb * $avg_mb * 8)))")
# Archives concatenate: the GPU run gets copies of mb.ark up to TRAIN_MB
# minibatches; start-up is measured with one copy; the CPU run takes the
# first CPU_TRAIN_MB minibatches (nnet3-subset-egs).
copies=$(( (TRAIN_MB + n_mb - 1) / n_mb ))
for i in $(seq "$copies"); do cat "$TMP/mb.ark"; done > "$TMP/train_big.ark"
tb=$(time_run "$TMP/tg.log" "$BIN/nnet3-train" --use-gpu=yes "$TMP/tdnn.raw" ark:"$TMP/train_big.ark" "$TMP/t1.raw")
ts=$(time_run "$TMP/tg.log" "$BIN/nnet3-train" --use-gpu=yes "$TMP/tdnn.raw" ark:"$TMP/mb.ark" "$TMP/t1.raw")
echo "tdnn train_gpu 128 $((copies * mb_frames)) $mb_frames $tb $ts" >> "$TMP/results"
tc=$(time_run "$TMP/t.log" "$BIN/nnet3-train" --use-gpu=no --print-interval=1 "$TMP/tdnn.raw" \
     "ark:$BIN/nnet3-subset-egs --n=$CPU_TRAIN_MB ark:$TMP/mb.ark ark:- |" "$TMP/t1.raw")
cpu_frames=$(python3 -c "print(int(round(min($CPU_TRAIN_MB, $n_mb) * $avg_mb * 8)))")
echo "tdnn train_cpu 128 $cpu_frames 0 $tc 0" >> "$TMP/results"

device=$(sed -n 's/.*\(The active GPU is .*\)/\1/p; s/.*\(opaque debugging device\).*/\1/p' "$TMP/tg.log" | head -1)
printf '%s\n' "${notes[@]+"${notes[@]}"}" > "$TMP/notes"
python3 - "$TMP/results" "$TMP/notes" "$device" <<'PY'
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
notes = [l.strip() for l in open(sys.argv[2]) if l.strip()]
device = sys.argv[3]
def fps(r):  # frames/s with start-up removed (big minus small), or plain
    big, small, tb, ts = int(r[3]), int(r[4]), float(r[5]), float(r[6])
    if small > 0 and tb > ts:
        return (big - small) / (tb - ts)
    return big / tb
out = {'benchmark': 'gpu', 'device': device, 'nets': {}, 'notes': notes}
for r in rows:
    net, kind = r[0], r[1]
    d = out['nets'].setdefault(net, {})
    if kind == 'json':
        d['computation'] = json.loads(' '.join(r[2:]))['results']
    else:
        d.setdefault(kind, {})[int(r[2])] = round(fps(r), 1)
print('GPU benchmark on %s' % (device or 'the GPU'))
print('%-6s %-10s %10s %10s %12s %10s %9s %9s' % ('net', 'minibatch', 'e2e fr/s', 'comp fr/s', 'GEMM bound', 'fraction', 'e2e/bnd', 'GPU/CPU'))
for net, d in out['nets'].items():
    comp = {c['minibatch']: c for c in d.get('computation', [])}
    cpu = d.get('infer_cpu', {}).get(128)
    sizes = sorted(set(d.get('infer_gpu', {})) | set(comp))
    for mb in sizes:
        e2e = d.get('infer_gpu', {}).get(mb)
        c = comp.get(mb, {})
        bound = c.get('gemm_bound_fps')
        f = lambda x, p='%10.0f': (p % x) if x is not None else '%10s' % '-'
        print('%-6s %-10d %s %s %s %s %s %s' % (
            net, mb, f(e2e), f(c.get('computation_fps')), f(bound, '%12.0f'),
            f(c.get('fraction'), '%10.3f'),
            f(e2e / bound if e2e and bound else None, '%9.3f'),
            f(e2e / cpu if e2e and cpu and mb == 128 else None, '%9.1f')))
    if 'train_gpu' in d:
        g, c = d['train_gpu'][128], d.get('train_cpu', {}).get(128)
        print('%-6s training 128 x 8 frames: GPU %.0f frames/s, CPU %s frames/s, GPU/CPU %s' % (
            net, g, '%.0f' % c if c else '-', '%.1f' % (g / c) if c else '-'))
for n in notes:
    print('note: ' + n)
print(json.dumps(out))
PY
