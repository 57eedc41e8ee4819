#!/usr/bin/env bash
# Not part of the suite (needs Kaldi's scripts and Kaldi's programs): runs
# Kaldi's own steps/make_mfcc.sh and steps/compute_cmvn_stats.sh, unchanged,
# on the first N utterances of a wav.scp, once with our programs first on
# PATH and no Kaldi program on it, once with Kaldi's (its path.sh), with
# --dither=0, and compares what they write: utt2num_frames and utt2dur byte
# for byte, features (--compress false) and CMVN stats by their largest
# |difference| (python3).
#
#   scripts/check-kaldi-feature-scripts.sh [BIN [WAV_SCP [N [KALDI]]]]
#   defaults: build/bin, /work/refsys/s5/data/test/wav.scp, 10, /opt/kaldi
#
# Prints one line per comparison; exits 1 if a step fails, a file differs
# or features differ by more than TOL (default 1e-4, the bound of
# tests/cli/compute-feats.sh; with the OpenBLAS Kaldi uses they are equal,
# 0 measured on 10 /work/refsys utterances).
set -uo pipefail
BIN=$(cd "${1:-build/bin}" && pwd)
WAV_SCP=${2:-/work/refsys/s5/data/test/wav.scp}
N=${3:-10}
KALDI=${4:-/opt/kaldi}
TOL=${TOL:-1e-4}
work=$(mktemp -d /tmp/check-feats.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
ln -s "$KALDI/egs/wsj/s5/steps" steps
ln -s "$KALDI/egs/wsj/s5/utils" utils
mkdir -p conf data/x
printf -- '--dither=0\n' > conf/mfcc.conf
head -n "$N" "$WAV_SCP" > data/x/wav.scp
awk '{ print $1, $1 }' data/x/wav.scp > data/x/utt2spk
cp data/x/utt2spk data/x/spk2utt
bad=0
for who in ours kaldi; do
  cp -r data/x "data/$who"
  if [ $who = ours ]; then
    path=$BIN:$PWD/utils:/usr/local/bin:/usr/bin:/bin
  else
    path=$KALDI/src/featbin:$KALDI/src/bin:$PWD/utils:/usr/local/bin:/usr/bin:/bin
  fi
  for step in "steps/make_mfcc.sh --compress false --nj 2 --cmd utils/run.pl" \
              "steps/compute_cmvn_stats.sh"; do
    # shellcheck disable=SC2086
    if ! PATH=$path $step "data/$who" "exp/$who" "mfcc_$who" > "$who.log" 2>&1; then
      echo "$who: $step failed:"; tail -5 "$who.log"; bad=1
    fi
  done
  PATH=$path bash -c "type -P compute-mfcc-feats compute-cmvn-stats copy-feats" | sed "s/^/$who: /"
  PATH=$BIN:$PATH copy-feats "scp:data/$who/feats.scp" "ark,t:$who-feats.txt" 2> /dev/null
  PATH=$BIN:$PATH copy-matrix "scp:data/$who/cmvn.scp" "ark,t:$who-cmvn.txt" 2> /dev/null
done
for f in utt2num_frames utt2dur; do
  if cmp -s "data/ours/$f" "data/kaldi/$f"; then echo "$f: identical"; else echo "$f: differs"; bad=1; fi
done
python3 - "$TOL" << 'PY' || bad=1
import sys
def read(path):
    out, rows = {}, None
    for line in open(path):
        if '[' in line:
            key, line = line.split('[', 1); rows = out.setdefault(key.split()[0], [])
        v = [float(x) for x in line.replace(']', '').split()]
        if v: rows.append(v)
    return out
ok = True
for what in ('feats', 'cmvn'):
    a, b = read('ours-%s.txt' % what), read('kaldi-%s.txt' % what)
    if a.keys() != b.keys() or any(len(a[k]) != len(b[k]) for k in a):
        print('%s: different keys or sizes' % what); ok = False; continue
    d = [(abs(x - y), abs(x - y) / max(abs(y), 1.0)) for k in a
         for r, s in zip(a[k], b[k]) for x, y in zip(r, s)]
    worst, rel = max(x for x, _ in d), max(y for _, y in d)
    print('%s: %d utterances, max |ours - Kaldi| %.3g, relative %.3g' % (what, len(a), worst, rel))
    if what == 'feats' and worst > float(sys.argv[1]): ok = False
sys.exit(0 if ok else 1)
PY
exit $bad
