#!/usr/bin/env bash
# Writes the generated seeds of the fuzz corpora into tests/fuzz/corpus/
# (seed-* files; the crash reproducers there are kept). The other seeds come
# straight from tests/data/ and configs/ (targets.txt). Run after changing a
# format, then commit the corpus:
#   tests/fuzz/make-seeds.sh build/bin
set -euo pipefail
BIN=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
C=$HERE/corpus
export PATH="$BIN:$PATH"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
for t in config descriptor nnet component matrix archive egs merge-egs scp options cache; do
  mkdir -p "$C/$t"
  rm -f "$C/$t"/seed-*
done

# Features and posteriors for the 4-dimensional network of cache-net.config.
python3 - <<'PY'
import random
random.seed(3)
with open('feats.txt', 'w') as f, open('post.txt', 'w') as p:
    for u in range(3):
        n = 6 + u
        rows = [' '.join('%.3f' % random.gauss(0, 1) for _ in range(4)) for _ in range(n)]
        f.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        p.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % random.randrange(3) for _ in range(n))))
PY
q() { "$@" 2> /dev/null; }
q copy-feats ark,t:feats.txt ark:feats.ark
q copy-feats --compress=true ark,t:feats.txt ark:cfeats.ark
q copy-feats --compress=true --compression-method=2 ark,t:feats.txt ark:cfeats2.ark
q nnet3-init --srand=1 "$HERE/cache-net.config" 0.raw
q nnet3-get-egs --num-pdfs=3 --left-context=3 --right-context=1 --num-frames=2 \
  ark:feats.ark ark,t:post.txt ark:egs.ark
q nnet3-merge-egs --minibatch-size=2 ark:egs.ark ark:merged.ark
q nnet3-merge-egs --minibatch-size=3 ark:egs.ark ark,t:merged-text.ark
q nnet3-train --write-cache=cache.bin 0.raw ark:merged.ark 1.raw
q nnet3-train --write-cache=cache.txt --binary-write-cache=false 0.raw ark:merged.ark 1.raw
q nnet3-copy --binary=false 0.raw 0.txt

cp 0.raw "$C/nnet/seed-cache-net.raw"
cp 0.txt "$C/nnet/seed-cache-net.txt"
cp "$HERE/cache-net.config" "$C/config/seed-cache-net.config"
cp cache.bin "$C/cache/seed-cache.bin"
cp cache.txt "$C/cache/seed-cache.txt"
cp feats.ark "$C/archive/seed-feats.ark"
cp cfeats.ark "$C/archive/seed-cfeats.ark"
cp cfeats2.ark "$C/archive/seed-cfeats2.ark"
cp feats.txt "$C/archive/seed-feats.txt"
cp post.txt "$C/archive/seed-post.txt"
q copy-feats ark,t:feats.txt ark,scp:f.ark,f.scp
cp egs.ark "$C/egs/seed-egs.ark"
cp merged.ark "$C/egs/seed-merged.ark"
cp merged-text.ark "$C/egs/seed-merged-text.ark"
i=0
for f in egs.ark merged.ark "$ROOT"/tests/data/train/*.egs "$ROOT"/tests/data/train/*.txt; do
  for b in '\x00' '\x0d' '\x05' '\x0b'; do
    { printf "$b"; cat "$f"; } > "$C/merge-egs/seed-$i"
    i=$((i + 1))
  done
done

# scp: the word ARK stands for the archive after the '\0' (fuzz-scp.cc).
sed 's/ f\.ark:/ ARK:/' f.scp > s.scp
{ cat s.scp; printf '\0'; cat f.ark; } > "$C/scp/seed-feats"
{ printf 'utt0 ARK:%s[1:3,0:2]\nutt1 ARK:%s[2:4]\n' "$(sed -n 's/utt0 ARK://p' s.scp)" \
    "$(sed -n 's/utt1 ARK://p' s.scp)"; printf '\0'; cat f.ark; } > "$C/scp/seed-ranges"
{ sed 's/ golden-mat\.ark:/ ARK:/' "$ROOT/tests/data/util/golden-mat.scp"; printf '\0';
  cat "$ROOT/tests/data/util/golden-mat.ark"; } > "$C/scp/seed-golden"
{ printf 'mat1 ARK\n'; printf '\0'; printf '\0BFM \4\1\0\0\0\4\2\0\0\0\0\0\200\77\0\0\0\100'; } \
  > "$C/scp/seed-whole-file"

# Descriptors: every input= of the example configs, and one of each kind.
cat "$ROOT"/configs/*.config "$HERE/cache-net.config" | grep -o 'input=[^ ]*' |
  sed 's/^input=//' | sort -u > descriptors.txt
n=0
while read -r d; do
  printf '%s' "$d" > "$C/descriptor/seed-config-$n"; n=$((n + 1))
done < descriptors.txt
k=0
for d in 'input' 'Append(Offset(input, -1), input, Offset(input, 1))' \
  'Sum(Scale(0.5, tdnn1), IfDefined(Offset(lstm1, -3)))' 'Failover(input, Const(1.0, 4))' \
  'Switch(input, x)' 'Round(input, 3)' 'ReplaceIndex(ivector, t, 0)' \
  'Append(input, ReplaceIndex(ivector, t, 0))' 'Scale(2, Sum(input, x))' \
  'Offset(input, 1, 2)' 'Append(Sum(input, Scale(-1, x)), Offset(Round(tdnn1, 2), -2))'; do
  printf '%s' "$d" > "$C/descriptor/seed-kind-$k"; k=$((k + 1))
done

printf -- '--binary=false\n--num-epochs=3  # comment\n--optimization.consolidate-model-update=false\n--scale=0.5\n--use-gpu=no\n--srand=4\n--learning-rate=1e-3\n--binary\n' \
  > "$C/options/seed-good"
printf -- '--num-epochs=x\n' > "$C/options/seed-bad-value"
printf -- '--no-such-option=1\n' > "$C/options/seed-unknown"
printf -- '--config=other\n' > "$C/options/seed-nested"
printf -- 'binary=true\n' > "$C/options/seed-no-dashes"

# Component seeds beyond tests/data/nnet/components: binary forms.
python3 - "$C/component" "$ROOT/tests/data/nnet/models/example.bin" <<'PY'
import sys
# Cut the binary example model into its components (each starts with a
# <...Component> token after <ComponentName> NAME).
out, path = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
parts = data.split(b'<ComponentName> ')[1:]
for i, p in enumerate(parts):
    sp = p.find(b' ')
    body = p[sp + 1:]
    end = body.find(b'</Nnet3>')
    if end >= 0:
        body = body[:end]
    open('%s/seed-bin-%d' % (out, i), 'wb').write(b'\0B' + body)
PY

# Matrices beyond tests/data/matrix: ';' rows.
printf '[ 1 2 ; 3 4 ]\n' > "$C/matrix/seed-semicolons.txt"

echo "seeds written under $C"
