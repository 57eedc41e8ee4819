#!/usr/bin/env bash
# Feature extraction against Kaldi's programs on the same audio: speed of
# compute-mfcc-feats (one core, default options, so the dither included)
# and the largest |difference| of MFCC, fbank and spectrogram features with
# --dither=0 under several option sets.
#
#   scripts/bench/features.sh WAV_SCP [KALDI_FEATBIN] [build-dir]
#   e.g. scripts/bench/features.sh /work/refsys/s5/data/test/wav.scp \
#          /opt/kaldi/src/featbin
#
# KALDI_FEATBIN defaults to /opt/kaldi/src/featbin (Kaldi's shared libraries
# must be found: source Kaldi's path.sh first if they are not). Environment:
# RUNS (timed runs of each program, alternating; default 5), COMPARE_UTTS
# (utterances of WAV_SCP compared, default 40; timing uses all of it),
# OPTION_SETS (a file of "program options" lines to compare instead of the
# built-in list), SPEED_OPTIONS (options of the timed runs, e.g.
# --allow-downsample for audio that is not at 16 kHz; default none). CPU seconds (user + sys) of each run come from bash's
# `time`; the median of each program and the ratio Kaldi / ours are
# printed: above 1 means ours is faster. Output goes to ark:/dev/null, so
# the timing includes reading the audio and writing the archive, not a
# disk. The comparison reads both binary archives (python3) and prints, per
# option set, the largest |ours - Kaldi| / max(|Kaldi|, 1) ("rel") and the
# largest |ours - Kaldi| with where it is ("abs").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WAV_SCP=${1:?usage: features.sh WAV_SCP [KALDI_FEATBIN] [build-dir]}
KALDI=${2:-/opt/kaldi/src/featbin}
BUILD=${3:-$ROOT/build}
OURS=$BUILD/bin
RUNS=${RUNS:-5}
COMPARE_UTTS=${COMPARE_UTTS:-40}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for p in compute-mfcc-feats compute-fbank-feats compute-spectrogram-feats; do
  [ -x "$KALDI/$p" ] || { echo "no Kaldi $p in $KALDI" >&2; exit 1; }
  [ -x "$OURS/$p" ] || { echo "no $p in $OURS (build it first)" >&2; exit 1; }
done

# cpu_seconds CMD...: user + sys seconds of one run.
cpu_seconds() {
  local TIMEFORMAT='%U %S' t
  t=$( { time "$@" > /dev/null 2>&1; } 2>&1 )
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f\n", a[1] + a[2] }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

read -r -a speed_opts <<< "${SPEED_OPTIONS:-}"
echo "== speed: compute-mfcc-feats, options: ${SPEED_OPTIONS:-(defaults)}, $(wc -l < "$WAV_SCP") utterances, $RUNS runs each"
for i in $(seq "$RUNS"); do
  taskset -c 0 true 2> /dev/null && pin=(taskset -c 0) || pin=()
  cpu_seconds "${pin[@]}" "$KALDI/compute-mfcc-feats" "${speed_opts[@]}" "scp:$WAV_SCP" ark:/dev/null >> "$TMP/kaldi.t"
  cpu_seconds "${pin[@]}" "$OURS/compute-mfcc-feats" "${speed_opts[@]}" "scp:$WAV_SCP" ark:/dev/null >> "$TMP/ours.t"
done
k=$(median < "$TMP/kaldi.t"); o=$(median < "$TMP/ours.t")
echo "Kaldi cpu s (median): $k   ours: $o   ratio Kaldi/ours: $(awk -v k="$k" -v o="$o" 'BEGIN { printf "%.2f", k / o }')"

cat > "$TMP/compare.py" << 'PY'
import array, struct, sys
def read(path):
    out, b, i = {}, open(path, 'rb').read(), 0
    while i < len(b):
        j = b.index(b' ', i); key = b[i:j].decode(); i = j + 1
        assert b[i:i + 5] == b'\0BFM ', 'not a binary float matrix archive'
        rows = struct.unpack('<i', b[i + 6:i + 10])[0]
        cols = struct.unpack('<i', b[i + 11:i + 15])[0]; i += 15
        a = array.array('f'); a.frombytes(b[i:i + 4 * rows * cols])
        out[key] = (rows, cols, a); i += 4 * rows * cols
    return out
ours, kaldi = read(sys.argv[1]), read(sys.argv[2])
if ours.keys() != kaldi.keys(): sys.exit('different utterances')
worst, where, rel = 0.0, '', 0.0
for key in kaldi:
    (r, c, a), (r2, c2, b) = ours[key], kaldi[key]
    if (r, c) != (r2, c2): sys.exit('%s: %dx%d vs %dx%d' % (key, r, c, r2, c2))
    for n, (x, y) in enumerate(zip(a, b)):
        rel = max(rel, abs(x - y) / max(abs(y), 1.0))
        if abs(x - y) > worst:
            worst, where = abs(x - y), '%s frame %d dim %d (Kaldi %.6g)' % (key, n // c, n % c, y)
print('rel %.2g  abs %.3g at %s' % (rel, worst, where))
PY
head -n "$COMPARE_UTTS" "$WAV_SCP" > "$TMP/compare.scp"
if [ -n "${OPTION_SETS:-}" ]; then cp "$OPTION_SETS" "$TMP/sets"; else
  cat > "$TMP/sets" << 'SETS'
mfcc
mfcc --snip-edges=false
mfcc --window-type=hamming
mfcc --use-energy=false --num-ceps=20 --num-mel-bins=30
mfcc --raw-energy=false --energy-floor=1.0
mfcc --frame-length=20 --round-to-power-of-two=false --low-freq=100 --high-freq=-400
mfcc --vtln-warp=0.9
mfcc --htk-compat --use-energy=false --cepstral-lifter=0
mfcc --preemphasis-coefficient=0 --remove-dc-offset=false --window-type=blackman
fbank
fbank --use-energy=true
fbank --num-mel-bins=40 --snip-edges=false
fbank --window-type=hamming --use-power=false
fbank --window-type=sine --vtln-warp=1.1
spectrogram
spectrogram --snip-edges=false
spectrogram --window-type=hamming --raw-energy=false
spectrogram --window-type=rectangular --round-to-power-of-two=false
SETS
fi
echo "== max |ours - Kaldi| with --dither=0 on $(wc -l < "$TMP/compare.scp") utterances"
while read -r kind opts; do
  [ -n "$kind" ] || continue
  # shellcheck disable=SC2086
  "$KALDI/compute-$kind-feats" --dither=0 $opts "scp:$TMP/compare.scp" "ark:$TMP/k.ark" 2> /dev/null
  # shellcheck disable=SC2086
  "$OURS/compute-$kind-feats" --dither=0 $opts "scp:$TMP/compare.scp" "ark:$TMP/o.ark" 2> /dev/null
  printf '%-12s %-70s %s\n' "$kind" "${opts:-(defaults)}" "$(python3 "$TMP/compare.py" "$TMP/o.ark" "$TMP/k.ark")"
done < "$TMP/sets"
