#!/usr/bin/env bash
# Decoding end to end: nnet3-latgen-faster, -parallel and -looped with the
# golden model tests/data/train/hmm.mdl (3 phones, 14 transition-ids, 6
# pdfs, priors) and a small graph built here with fstcompile (three words,
# one per phone, HMM self-loops, epsilon word arcs, a final state). Checks:
# Kaldi's log lines and the words on stderr; the words, alignments and
# lattices written (the lattice's best path gives the same words, and its
# costs, scaled by the acoustic scale, the logged likelihood); raw lattices
# with --determinize-lattice=false; ConstFst and VectorFst graphs, serial
# and parallel, looped and not, a graph per utterance: the same output;
# bad input (wrong feature dimension, a graph for another model, an empty
# archive, no final state with and without --allow-partial, bad usage).
BIN=$1 DATA=$2
G=$DATA/train
. "$(dirname "$0")/lib.sh"
need libfst-tools "command -v fstcompile && command -v fstconvert"

cp "$DATA/decode/graph.txt" graph.txt  # three words (its README)
cp "$DATA/decode/words.txt" words.txt
expect_ok graphs "fstcompile graph.txt > HCLG.fst && fstconvert --fst_type=const HCLG.fst > HCLG-const.fst"
# Three utterances of random 2-dimensional features (the model's input).
python3 - <<'PY' > feats.txt
import random
random.seed(29)
for utt, n in (("u1", 23), ("u2", 40), ("u3", 9)):
    rows = ["  " + " ".join("%.3f" % random.gauss(0, 1) for _ in range(2))
            for _ in range(n)]
    print(utt + "  [\n" + "\n".join(rows) + " ]")
PY
expect_ok feats "copy-feats ark,t:feats.txt ark:feats.ark"

# The basic run: determinized lattices, words, alignments, log lines.
expect_ok decode "nnet3-latgen-faster --word-symbol-table=words.txt $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:lat.txt ark,t:words.txt ark,t:ali.txt"
cp "$TMP/err" decode.log
for utt in u1 u2 u3; do
  grep -Eq "^LOG \(nnet3-latgen-faster.*Log-like per frame for utterance $utt is -?[0-9.]+(e-?[0-9]+)? over [0-9]+ frames\.$" decode.log ||
    fail "no log-likelihood line for $utt"
  grep -Eq "^$utt( [abc])* $" decode.log || fail "words of $utt not on stderr"
done
grep -q 'Done 3 utterances, failed for 0$' decode.log || fail "Done line: $(grep Done decode.log)"
grep -Eq 'Time taken [0-9.e-]+s: real-time factor assuming 100 frames/sec is [0-9.e-]+$' decode.log || fail "no Time taken line"
grep -Eq 'Overall log-likelihood per frame is -?[0-9.e-]+ over 72 frames\.$' decode.log || fail "Overall line: $(grep Overall decode.log)"
# Words and alignments: one alignment entry per frame (23, 40, 9); the
# lattice's best path (graph + 0.1 x acoustic cost, the costs having been
# written unscaled) has the same words and the logged likelihood.
python3 - <<'PY' || fail "words / alignments / lattices disagree"
import re
def table(path):
    return {l.split()[0]: [int(x) for x in l.split()[1:]] for l in open(path) if l.strip()}
words, ali = table("words.txt"), table("ali.txt")
assert {k: len(v) for k, v in ali.items()} == {"u1": 23, "u2": 40, "u3": 9}, ali
assert all(1 <= t <= 14 for v in ali.values() for t in v)
log = open("decode.log").read()
lats, utt = {}, None
for line in open("lat.txt"):
    f = line.split()
    if not f: utt = None; continue
    if utt is None: utt = f[0]; lats[utt] = []; continue
    lats[utt].append(f)
for utt, lines in lats.items():
    arcs, finals = {}, {}
    for f in lines:
        if len(f) >= 4:
            w = f[3].split(",")
            arcs.setdefault(int(f[0]), []).append((int(f[1]), int(f[2]), float(w[0]) + 0.1 * float(w[1]), len(w[2].split("_")) if len(w) > 2 and w[2] else 0))
        else:
            w = f[1].split(",") if len(f) > 1 else ["0", "0"]
            finals[int(f[0])] = (float(w[0]) + 0.1 * float(w[1]), len(w[2].split("_")) if len(w) > 2 and w[2] else 0)
    # Best path by relaxation (the lattice is acyclic).
    best = {}
    def go(s):
        if s in best: return best[s]
        cands = []
        if s in finals: cands.append((finals[s][0], [], finals[s][1]))
        for d, word, cost, n in arcs.get(s, []):
            c, ws, m = go(d)
            cands.append((cost + c, ([word] if word else []) + ws, n + m))
        best[s] = min(cands)
        return best[s]
    cost, ws, frames = go(0)
    assert ws == words[utt], (utt, ws, words[utt])
    assert frames == len(ali[utt]), (utt, frames)
    like = float(re.search(r"for utterance %s is (\S+) over" % utt, log).group(1))
    assert abs(-cost / frames - like) < 1e-3 * max(1, abs(like)), (utt, cost, like)
PY

# The same with a ConstFst graph, and in parallel (in input order).
expect_ok decode-const "nnet3-latgen-faster $G/hmm.mdl HCLG-const.fst ark:feats.ark ark,t:lat-const.txt ark,t:words-const.txt"
same_file decode-const lat-const.txt lat.txt
expect_ok decode-parallel "nnet3-latgen-faster-parallel --num-threads=2 $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:lat-par.txt ark,t:words-par.txt ark,t:ali-par.txt"
same_file decode-parallel lat-par.txt lat.txt
same_file decode-parallel-ali ali-par.txt ali.txt
grep -q 'Done 3 utterances, failed for 0$' "$TMP/err" || fail "parallel: Done line"
# Looped: for this feed-forward network, the same words and alignments.
expect_ok decode-looped "nnet3-latgen-faster-looped $G/hmm.mdl HCLG.fst ark:feats.ark ark:/dev/null ark,t:words-looped.txt ark,t:ali-looped.txt"
same_file decode-looped words-looped.txt words.txt
same_file decode-looped-ali ali-looped.txt ali.txt
# A graph per utterance (an archive of FSTs in text form): the same output.
for utt in u1 u2 u3; do printf '%s \n' $utt; fstprint HCLG.fst; echo; done > graphs.ark.txt
expect_ok decode-table "nnet3-latgen-faster $G/hmm.mdl ark:graphs.ark.txt ark:feats.ark ark,t:lat-table.txt ark,t:words-table.txt"
same_file decode-table words-table.txt words.txt

# Raw lattices: state-level, transition-ids on the arcs; the same words.
expect_ok decode-raw "nnet3-latgen-faster --determinize-lattice=false $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:raw.txt ark,t:words-raw.txt"
same_file decode-raw words-raw.txt words.txt
awk 'NF >= 4 && $3 > 14 { bad = 1 } END { exit bad }' raw.txt || fail "raw lattice: input labels beyond the transition-ids"
[ "$(grep -c '^u[123] *$' raw.txt)" = 3 ] || fail "raw lattice: not three entries"

# Bad input.
printf 'u1  [\n  1 2 3\n  4 5 6 ]\n' > feats3.txt
expect_error wrong-dim "u1.*3 columns|u1.*dimension" "copy-feats ark,t:feats3.txt ark:- | nnet3-latgen-faster $G/hmm.mdl HCLG.fst ark:- ark:/dev/null"
sed 's/^7 0 14 0 0.69$/7 0 20 0 0.69/' graph.txt | fstcompile > other.fst
expect_error other-model "transition-id|input label.*20" "nnet3-latgen-faster $G/hmm.mdl other.fst ark:feats.ark ark:/dev/null"
expect_error empty-archive "[Nn]o utterance" "nnet3-latgen-faster $G/hmm.mdl HCLG.fst ark:/dev/null ark:/dev/null"
grep -q 'Done 0 utterances, failed for 0$' "$TMP/err" || fail "empty archive: no Done line"
grep -v '^0 0$' graph.txt | fstcompile > nofinal.fst
expect_error no-final "[Nn]o utterance" "nnet3-latgen-faster $G/hmm.mdl nofinal.fst ark:feats.ark ark:/dev/null"
grep -q 'Not producing output for utterance u1 since no final-state reached and --allow-partial=false' "$TMP/err" ||
  fail "no final state: no warning"
grep -q 'Done 0 utterances, failed for 3$' "$TMP/err" || fail "no final state: Done line"
expect_ok partial "nnet3-latgen-faster --allow-partial=true $G/hmm.mdl nofinal.fst ark:feats.ark ark,t:partial.txt ark,t:words-partial.txt"
grep -q 'Outputting partial output for utterance u2 since no final-state reached' "$TMP/err" ||
  fail "--allow-partial: no warning"
grep -q 'Done 3 utterances, failed for 0$' "$TMP/err" || fail "--allow-partial: Done line"
[ "$(grep -c '^u[123] *$' partial.txt)" = 3 ] || fail "--allow-partial: not three lattices"
expect_error bad-words-table "words.*table|[Ss]ymbol" "nnet3-latgen-faster --word-symbol-table=/nonexistent/words.txt $G/hmm.mdl HCLG.fst ark:feats.ark ark:/dev/null"
bash -c "nnet3-latgen-faster $G/hmm.mdl HCLG.fst ark:feats.ark" > /dev/null 2>&1
[ $? = 1 ] || fail "too few arguments: not exit 1"
expect_error bad-beam "beam" "nnet3-latgen-faster --beam=-1 $G/hmm.mdl HCLG.fst ark:feats.ark ark:/dev/null"

finish
