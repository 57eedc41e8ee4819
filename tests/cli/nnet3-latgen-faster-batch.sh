#!/usr/bin/env bash
# nnet3-latgen-faster-batch (issue 32) against nnet3-latgen-faster, with the
# golden model tests/data/train/hmm.mdl (context 1+1, no recurrence, so the
# batch chunking rule gives the same scores) and the three-word graph of
# nnet3-latgen-faster.sh. Checks: lattices (determinized and raw), words and
# alignments byte-equal to nnet3-latgen-faster's for 1, 2 and 8 search threads
# and several minibatch sizes, also with tight memory bounds and on the opaque
# device (the GPU code path on the CPU); input order (lattice keys, words on
# stderr); Kaldi's summary lines and ours, the progress line (--log-interval);
# a per-utterance graph table (ark and scp); bad input: an utterance without a
# graph, one with the wrong feature dimension (a WARNING naming it, the others
# written, exit 0; exit 1 if none is decoded), bad options and usage.
BIN=$1 DATA=$2
G=$DATA/train
. "$(dirname "$0")/lib.sh"
need libfst-tools "command -v fstcompile && command -v fstprint"

cp "$DATA/decode/graph.txt" graph.txt  # three words (its README)
cp "$DATA/decode/words.txt" words.txt
# A graph that allows only word "a" (for the per-utterance table).
grep -v -E '^0 (4|7) ' graph.txt > graph-a.txt
expect_ok graphs "fstcompile graph.txt > HCLG.fst && fstcompile graph-a.txt > HCLG-a.fst"
# Twelve utterances, 1 to 130 frames (several 50-frame chunks), long and
# short mixed so that they finish out of input order; seed 32.
python3 - <<'PY' > feats.txt
import random
random.seed(32)
for i, n in enumerate((130, 5, 77, 1, 23, 130, 9, 40, 51, 2, 77, 130)):
    rows = ["  " + " ".join("%.3f" % random.gauss(0, 1) for _ in range(2))
            for _ in range(n)]
    print("u%02d  [\n" % i + "\n".join(rows) + " ]")
PY
expect_ok feats "copy-feats ark,t:feats.txt ark:feats.ark"
KEYS="u00 u01 u02 u03 u04 u05 u06 u07 u08 u09 u10 u11"
keys() { grep -E '^u[0-9]+ *$' "$1" | tr -d ' ' | tr '\n' ' ' | sed 's/ $//'; }

# The reference: nnet3-latgen-faster with the same options.
expect_ok ref "nnet3-latgen-faster --word-symbol-table=words.txt $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:ref.txt ark,t:ref-words.txt ark,t:ref-ali.txt"
grep -E '^u[0-9]+( [abc])* $' "$TMP/err" > ref-stderr-words.txt
[ "$(keys ref.txt)" = "$KEYS" ] || fail "reference: keys $(keys ref.txt)"

B="nnet3-latgen-faster-batch --use-gpu=no"
for threads in 1 2 8; do
  for mb in 1 3 128; do
    name=batch-t$threads-mb$mb
    expect_ok $name "$B --num-threads=$threads --minibatch-size=$mb --edge-minibatch-size=$(( (mb + 1) / 2 )) --word-symbol-table=words.txt $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:$name.txt ark,t:$name-words.txt ark,t:$name-ali.txt"
    cp "$TMP/err" $name.log
    same_file $name $name.txt ref.txt
    same_file $name-words $name-words.txt ref-words.txt
    same_file $name-ali $name-ali.txt ref-ali.txt
    # Words on stderr, in input order, as Kaldi's program prints them.
    grep -E '^u[0-9]+( [abc])* $' $name.log | diff -q - ref-stderr-words.txt > /dev/null ||
      fail "$name: words on stderr not those of nnet3-latgen-faster, in order"
  done
done
[ "$(keys batch-t8-mb1.txt)" = "$KEYS" ] || fail "output order: $(keys batch-t8-mb1.txt)"
L=batch-t2-mb3.log
grep -Eq 'Overall likelihood per frame was -?[0-9.e-]+ over 675 frames\.$' $L || fail "no Overall line"
grep -Eq 'Time taken [0-9.e-]+s: real-time factor assuming 100 frames/sec is [0-9.e-]+ \(per thread; with 2 threads\)\.$' $L ||
  fail "no Time taken line"
grep -q 'Done 12 utterances (0 forced out); failed for 0$' $L || fail "Done line: $(grep Done $L)"
grep -Eq 'Time shares of [0-9.e-]+s: acoustic model \(cpu\) busy [0-9.e-]+%; search threads busy [0-9.e-]+% [0-9.e-]+%; reading input' $L ||
  fail "no time-shares line"
grep -q 'After .*utterances written' $L && fail "a progress line before --log-interval (60 s) passed"
expect_ok progress "$B --log-interval=0.000001 $G/hmm.mdl HCLG.fst ark:feats.ark ark:/dev/null"
grep -Eq 'After [0-9.e-]+s: [0-9]+ utterances written \(0 failed\), [0-9]+ frames, [0-9.e+-]+ frames per second; acoustic model busy [0-9.e-]+%$' "$TMP/err" ||
  fail "--log-interval: no progress line"
for utt in $KEYS; do
  grep -Eq "Log-like per frame for utterance $utt is -?[0-9.e-]+ over [0-9]+ frames\.$" $L || fail "no Log-like line for $utt"
done

# Raw lattices, tight memory bounds, a partial-minibatch factor, and the
# opaque device standing in for a GPU: the same output.
expect_ok raw-ref "nnet3-latgen-faster --determinize-lattice=false $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:raw-ref.txt"
expect_ok raw "$B --determinize-lattice=false --num-threads=2 --minibatch-size=4 $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:raw.txt"
same_file raw raw.txt raw-ref.txt
expect_ok bounded "$B --num-threads=2 --max-utterances-in-flight=1 --max-lattices-waiting=2 --minibatch-size=2 --partial-minibatch-factor=0.0 $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:bounded.txt"
same_file bounded bounded.txt ref.txt
expect_ok opaque "NNET3_DEBUG_OPAQUE_DEVICE=1 nnet3-latgen-faster-batch --use-gpu=yes --num-threads=2 $G/hmm.mdl HCLG.fst ark:feats.ark ark,t:opaque.txt"
same_file opaque opaque.txt ref.txt

# A graph per utterance: u07 and u10 get the "a"-only graph, the others
# the full one; as nnet3-latgen-faster with the same table (ark and scp).
for utt in $KEYS; do
  printf '%s \n' $utt
  case $utt in u07|u10) fstprint HCLG-a.fst ;; *) fstprint HCLG.fst ;; esac
  echo
done > graphs.ark.txt
expect_ok table-ref "nnet3-latgen-faster $G/hmm.mdl ark:graphs.ark.txt ark:feats.ark ark,t:table-ref.txt ark,t:table-ref-words.txt"
expect_ok table "$B --num-threads=2 --minibatch-size=3 $G/hmm.mdl ark:graphs.ark.txt ark:feats.ark ark,t:table.txt ark,t:table-words.txt"
same_file table table.txt table-ref.txt
same_file table-words table-words.txt table-ref-words.txt
grep -Eq '^u07 (1 ?)+$' table-words.txt || fail "table: u07 not decoded with its own graph: $(grep u07 table-words.txt)"
cmp -s table.txt ref.txt && fail "table: the graphs of the table were not used"
expect_ok table-scp "fstcopy ark:graphs.ark.txt ark,scp:graphs.ark,graphs.scp && $B --num-threads=8 $G/hmm.mdl scp:graphs.scp ark:feats.ark ark,t:table-scp.txt"
same_file table-scp table-scp.txt table-ref.txt

# Bad input. No graph for u05: a WARNING naming it, the others written.
grep -v '^u05 ' graphs.scp > graphs-no-u05.scp
expect_exit missing-graph 0 'WARNING.*u05' "$B --num-threads=2 $G/hmm.mdl scp:graphs-no-u05.scp ark:feats.ark ark,t:missing.txt"
grep -q 'Done 11 utterances (0 forced out); failed for 1$' "$TMP/err" || fail "missing graph: Done line: $(grep Done "$TMP/err")"
[ "$(keys missing.txt)" = "u00 u01 u02 u03 u04 u06 u07 u08 u09 u10 u11" ] || fail "missing graph: keys $(keys missing.txt)"
# Wrong feature dimension for one utterance (3 columns, in the middle).
{ sed -n '/^u00 /,/\]/p' feats.txt; printf 'bad  [\n  1 2 3\n  4 5 6 ]\n'; sed -n '/^u01 /,$p' feats.txt; } > feats-bad.txt
expect_ok feats-bad "copy-feats ark,t:feats-bad.txt ark:feats-bad.ark"
expect_exit wrong-dim 0 'WARNING.*bad' "$B --num-threads=2 $G/hmm.mdl HCLG.fst ark:feats-bad.ark ark,t:wrong-dim.txt"
grep -q 'Done 12 utterances (0 forced out); failed for 1$' "$TMP/err" || fail "wrong dimension: Done line: $(grep Done "$TMP/err")"
same_file wrong-dim wrong-dim.txt ref.txt
# Nothing decoded: exit 1 (Kaldi's status), after the summary lines.
printf 'bad  [\n  1 2 3\n  4 5 6 ]\n' > only-bad.txt
expect_ok only-bad-feats "copy-feats ark,t:only-bad.txt ark:only-bad.ark"
expect_error only-bad "[Nn]o utterance" "$B $G/hmm.mdl HCLG.fst ark:only-bad.ark ark:/dev/null"
grep -q 'WARNING.*bad' "$TMP/err" || fail "only bad: no warning naming the utterance"
# No final state: --allow-partial forces the lattices out and says so.
grep -v '^0 0$' graph.txt | fstcompile > nofinal.fst
expect_ok partial "$B --allow-partial=true $G/hmm.mdl nofinal.fst ark:feats.ark ark:/dev/null"
grep -q 'Done 12 utterances (12 forced out); failed for 0$' "$TMP/err" || fail "partial: Done line: $(grep Done "$TMP/err")"
expect_error bad-waiting "max-lattices-waiting" "$B --num-threads=4 --max-lattices-waiting=2 $G/hmm.mdl HCLG.fst ark:feats.ark ark:/dev/null"
bash -c "$B $G/hmm.mdl HCLG.fst ark:feats.ark" > /dev/null 2>&1
[ $? = 1 ] || fail "too few arguments: not exit 1"
finish
