#!/usr/bin/env bash
# Where our features and Kaldi's differ, stage by stage, on one WAVE file
# with --dither=0: builds scripts/bench/kaldi-mfcc-stages.cc against an
# installed Kaldi, which prints Kaldi's power spectrum, log mel energies
# and MFCCs per frame both with Kaldi's single-precision FFT and with the
# same FFT in double precision, and compares them with our
# compute-spectrogram-feats, compute-fbank-feats and compute-mfcc-feats
# (default options). Each line: the largest |difference| and where.
#
#   scripts/bench/feature-stages.sh WAV [KALDI_ROOT] [build-dir]
#   e.g. scripts/bench/feature-stages.sh /work/refsys/audio/test/te01/te01-0028.wav
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WAV=${1:?usage: feature-stages.sh WAV [KALDI_ROOT] [build-dir]}
KALDI=${2:-/opt/kaldi}
OURS=${3:-$ROOT/build}/bin
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mk() { grep "^$1 *=" "$KALDI/src/kaldi.mk" | head -1 | cut -d= -f2-; }
# shellcheck disable=SC2046
g++ -std=c++17 -O2 -I"$KALDI/src" -isystem "$(mk OPENFSTINC)" -I"$(mk OPENBLASINC)" \
  -DKALDI_DOUBLEPRECISION=0 -DHAVE_OPENBLAS "$ROOT/scripts/bench/kaldi-mfcc-stages.cc" \
  -o "$TMP/stages" -L"$KALDI/src/lib" -lkaldi-feat -lkaldi-matrix -lkaldi-util \
  -lkaldi-base -Wl,-rpath="$KALDI/src/lib" $(mk OPENBLASLIBS) $(mk OPENFSTLDFLAGS)
"$TMP/stages" "$WAV" > "$TMP/kaldi.txt" 2> /dev/null
echo "u $WAV" > "$TMP/wav.scp"
for p in spectrogram fbank mfcc; do
  "$OURS/compute-$p-feats" --dither=0 "scp:$TMP/wav.scp" "ark,t:$TMP/$p.txt" 2> /dev/null
done
python3 - "$TMP" << 'PY'
import math, sys
d = sys.argv[1]
k = {}
for line in open(d + '/kaldi.txt'):
    tag, *v = line.split()
    k.setdefault(tag, []).append([float(x) for x in v])
ours = lambda p: [[float(x) for x in l.replace(']', '').split()]
                  for l in open('%s/%s.txt' % (d, p)) if '[' not in l]
log = lambda m: [[math.log(max(x, 1.1920928955078125e-7)) for x in r[1:]] for r in m]
def show(name, a, b):
    worst, at = 0.0, ''
    for f, (r, s) in enumerate(zip(a, b)):
        for i, (x, y) in enumerate(zip(r, s)):
            if abs(x - y) > worst:
                worst, at = abs(x - y), 'frame %d dim %d (%.6g)' % (f, i, x)
    print('%-44s %9.3g  at %s' % (name, worst, at))
spec = [r[1:] for r in ours('spectrogram')]
show('log power (no bin 0): Kaldi float FFT vs ours', log(k['PF']), spec)
show('log power (no bin 0): Kaldi double FFT vs ours', log(k['PD']), spec)
show('log mel: Kaldi float FFT vs ours', k['LF'], ours('fbank'))
show('log mel: Kaldi double FFT vs ours', k['LD'], ours('fbank'))
show('MFCC: compute-mfcc-feats vs ours', k['A'], ours('mfcc'))
show('MFCC: Kaldi double FFT vs ours', k['MD'], ours('mfcc'))
show('MFCC: Kaldi float vs Kaldi double FFT', k['MF'], k['MD'])
show('MFCC: compute-mfcc-feats vs these stages', k['A'], k['MF'])
PY
