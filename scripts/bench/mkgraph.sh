#!/usr/bin/env bash
# Not part of the suite: time and peak memory of Kaldi's utils/mkgraph.sh
# with our programs against the same script with Kaldi's programs, on a
# 20,000-word trigram LM and the context-dependent (tri1) tree and model
# of a Kaldi-built reference system. Both graphs are compared (cmp).
#
#   scripts/bench/mkgraph.sh [BIN [REFSYS [KALDI]]]
#   defaults: build/bin, /work/refsys/s5, /opt/kaldi
#   STEPS=1 scripts/bench/mkgraph.sh   also times each program of the
#                                      pipeline alone (files between steps)
#
# Words: /usr/share/dict/american-english (Debian's wamerican; lowercase
# ASCII letters, 3-10 long), shuffled with seed 5; pronunciations from
# espeak-ng (en-us), mapped to the reference system's phones with its
# table (local/prepare_dict.py's PHONE_MAP); words with a phone outside
# its phone set dropped; the first 20,000 kept. Text: 400,000 words from a
# random bigram grammar over them (seed 5; each word has 12 likely
# successors); the LM: the reference system's interpolated Witten-Bell
# trigram estimator (local/make_arpa.py --min-count3 2). The lang directory
# is made once (Kaldi's prepare_lang.sh and format_lm.sh with our
# programs); mkgraph.sh then runs in two copies of it, each timed by
# /usr/bin/time -v (elapsed, user+system, maximum resident set size: the
# largest single program of the pipeline).
set -euo pipefail
BIN=$(cd "${1:-build/bin}" && pwd)
S=${2:-/work/refsys/s5}
KALDI=${3:-/opt/kaldi}
work=$(mktemp -d /tmp/bench-mkgraph.XXXXXX)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C
cd "$work"
ln -s "$KALDI/egs/wsj/s5/utils" utils
: > path.sh
mkdir -p dict exp/tri1
cp "$S/data/local/dict/"{silence_phones,optional_silence,nonsilence_phones,extra_questions}.txt dict/
cp "$S/exp/tri1/tree" "$S/exp/tri1/final.mdl" exp/tri1/

python3 - "$S/local" <<'PY'
import random, subprocess, sys
sys.path.insert(0, sys.argv[1])
from prepare_dict import PHONE_MAP, MARKS
rng = random.Random(5)
words = sorted({w.strip() for w in open('/usr/share/dict/american-english', errors='replace')
                if 3 <= len(w.strip()) <= 10 and w.strip().isascii()
                and w.strip().isalpha() and w.strip().islower()})
rng.shuffle(words)
cand = words[:30000]
out = subprocess.run(['espeak-ng', '-q', '-x', '--sep= ', '-v', 'en-us'],
                     input=''.join(w + '.\n' for w in cand), capture_output=True,
                     text=True, check=True).stdout.split('\n')
phones = set(open('dict/nonsilence_phones.txt').read().split())
lex = []
for w, raw in zip(cand, out):
    if '_' in raw or '  ' in raw.strip():
        continue
    toks = [''.join(c for c in t if c not in MARKS) for t in raw.split()]
    p = [PHONE_MAP.get(t) for t in toks if t]
    if not p or None in p or not set(p) <= phones:
        continue
    lex.append((w, p))
    if len(lex) == 20000:
        break
assert len(lex) == 20000, len(lex)
with open('dict/lexicon.txt', 'w') as f:
    f.write('!SIL SIL\n<unk> SPN\n')
    f.write(''.join('%s %s\n' % (w, ' '.join(p)) for w, p in lex))
vocab = [w for w, _ in lex]
open('vocab.txt', 'w').write(''.join(w + '\n' for w in vocab))
succ = {w: rng.sample(vocab, 12) for w in vocab}
weights = [1.0 / (i + 1) for i in range(12)]
with open('text.txt', 'w') as f:
    n = 0
    while n < 400000:
        w, sent = rng.choice(vocab), []
        for _ in range(rng.randint(3, 12)):
            sent.append(w)
            w = (rng.choices(succ[w], weights)[0] if rng.random() < 0.85
                 else rng.choice(vocab))
        f.write(' '.join(sent) + '\n')
        n += len(sent)
PY
python3 "$S/local/make_arpa.py" --min-count3 2 vocab.txt text.txt lm.arpa
gzip -n lm.arpa
gunzip -c lm.arpa.gz | sed -n '2,5p'

PATH=$BIN:/usr/local/bin:/usr/bin:/bin
utils/prepare_lang.sh dict "<unk>" tmp lang > prepare_lang.log 2>&1
utils/format_lm.sh lang lm.arpa.gz dict/lexicon.txt lang_test > format_lm.log 2>&1
cp -r lang_test lang_ours
cp -r lang_test lang_kaldi

kaldi_path=$PATH
for d in "$KALDI"/src/*bin; do kaldi_path=$d:$kaldi_path; done
for round in 1 2; do
  for who in ours kaldi; do
    rm -rf lang_$who/tmp exp/tri1/graph_$who
    if [ $who = ours ]; then p=$BIN:/usr/local/bin:/usr/bin:/bin; else p=$kaldi_path; fi
    PATH=$p /usr/bin/time -v utils/mkgraph.sh lang_$who exp/tri1 exp/tri1/graph_$who \
      > mkgraph_$who.log 2> mkgraph_$who.time
    printf 'round %s %-5s elapsed %s, user %s s, system %s s, max RSS %s kB\n' $round $who \
      "$(awk -F': ' '/Elapsed/ { print $2 }' mkgraph_$who.time)" \
      "$(awk -F': ' '/User time/ { print $2 }' mkgraph_$who.time)" \
      "$(awk -F': ' '/System time/ { print $2 }' mkgraph_$who.time)" \
      "$(awk -F': ' '/Maximum resident/ { print $2 }' mkgraph_$who.time)"
  done
done
fstinfo exp/tri1/graph_ours/HCLG.fst | grep -E '^# of (states|arcs)'
for f in tmp/LG.fst tmp/CLG_3_1.fst tmp/ilabels_3_1; do
  cmp lang_ours/$f lang_kaldi/$f && echo "identical: $f"
done
cmp exp/tri1/graph_ours/HCLG.fst exp/tri1/graph_kaldi/HCLG.fst && echo "identical: HCLG.fst"

[ "${STEPS:-}" = 1 ] || exit 0
# Each step alone, on the same input files (Kaldi's), ours then Kaldi's.
L=lang_kaldi T=lang_kaldi/tmp M=exp/tri1/final.mdl
steps=(
  "fsttablecompose $L/L_disambig.fst $L/G.fst s1.fst"
  "fstdeterminizestar --use-log=true s1.fst s2.fst"
  "fstminimizeencoded s2.fst s3.fst"
  "fstpushspecial s3.fst s4.fst"
  "fstcomposecontext --context-size=3 --central-position=1 --read-disambig-syms=$L/phones/disambig.int --write-disambig-syms=d.int ilabels $T/LG.fst s5.fst"
  "make-h-transducer --disambig-syms-out=tid.int --transition-scale=1.0 $T/ilabels_3_1 exp/tri1/tree $M s6.fst"
  "fsttablecompose s6.fst $T/CLG_3_1.fst s7.fst"
  "fstdeterminizestar --use-log=true s7.fst s8.fst"
  "fstrmsymbols tid.int s8.fst s9.fst"
  "fstrmepslocal s9.fst s10.fst"
  "fstminimizeencoded s10.fst s11.fst"
  "add-self-loops --self-loop-scale=0.1 --reorder=true $M s11.fst s12.fst"
)
for st in "${steps[@]}"; do
  for who in ours kaldi; do
    if [ $who = ours ]; then p=$BIN:/usr/bin:/bin; else p=$kaldi_path; fi
    mkdir -p $who
    (cd $who && ln -sf ../lang_kaldi ../exp . 2> /dev/null
     PATH=$p /usr/bin/time -f "%U %S %M" -o time.txt bash -c "$st" 2> /dev/null ||
       echo "FAILED: $st")
    printf '%-5s user %6s s, system %5s s, max RSS %7s kB: %s\n' $who \
      $(cat $who/time.txt) "${st%% *}"
  done
done
for f in $(seq -f 's%g.fst' 1 12) ilabels d.int tid.int; do
  cmp -s ours/$f kaldi/$f || echo "$f: ours and Kaldi's differ"
done
echo "steps done (no line above: every output byte-identical)"
