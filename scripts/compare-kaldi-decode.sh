#!/usr/bin/env bash
# Our nnet3-latgen-faster against Kaldi's, on the same model, graph and
# features (not a test: it needs Kaldi; run it by hand after changing the
# decoder or the lattice code).
#
#   scripts/compare-kaldi-decode.sh [build-dir]       # default: build
#
# Environment (defaults: /work/refsys's nnet3 system, 20 test utterances):
# MODEL (an nnet3 final.mdl), GRAPH (HCLG.fst built for its tree), FEATS
# (a features rspecifier), WORDS (words.txt), KALDI (the folder of Kaldi's
# nnet3-latgen-faster, nnet3-compute, nnet3-init and nnet3-am-init; default
# /opt/kaldi/src/nnet3bin).
#
# 1. Exact: the network's outputs minus log-priors, from Kaldi's
#    nnet3-compute, become the features of a model whose network passes its
#    input through (a NoOpComponent; MODEL's transition model, no priors),
#    so both decoders get bit-identical scores. Their determinized
#    lattices, raw lattices (--determinize-lattice=false), words and
#    alignments must be byte-identical.
# 2. The real network: ours and Kaldi's compute the network each in their
#    own way (different rounding), so the words and alignments are compared
#    exactly and the lattices (binary, full float precision) by structure
#    (states, arcs, labels, transition-id strings) and largest weight
#    difference, absolute and relative (|d| / max(|w|, 1)); then Kaldi's
#    lattice-equivalent (random paths: the same word sequences, total costs
#    within DELTA absolute) at DELTA 1e-3 and 1e-4. NNET3_CPU_GEMM=openblas
#    in the environment makes our products OpenBLAS's, as Kaldi's.
# Options are those of Kaldi's steps/nnet3/decode.sh. Exit 1 if step 1
# finds a difference or step 2 different words.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
OURS=$BUILD/bin
KALDI=${KALDI:-/opt/kaldi/src/nnet3bin}
REF=/work/refsys/s5
MODEL=${MODEL:-$REF/exp/nnet3/tdnn/final.mdl}
GRAPH=${GRAPH:-$REF/exp/tri1/graph_big/HCLG.fst}
WORDS=${WORDS:-$(dirname "$GRAPH")/words.txt}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "${FEATS:-}" ]; then
  head -20 "$REF/data/test_hires/feats.scp" > "$TMP/feats.scp"
  FEATS=scp:$TMP/feats.scp
fi
for p in nnet3-latgen-faster nnet3-compute nnet3-init nnet3-am-init; do
  [ -x "$KALDI/$p" ] || { echo "compare-kaldi-decode.sh: $KALDI/$p not found (set KALDI=...)" >&2; exit 1; }
done
[ -x "$OURS/nnet3-latgen-faster" ] || { echo "compare-kaldi-decode.sh: build $OURS/nnet3-latgen-faster first" >&2; exit 1; }
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
OPTS="--max-active=7000 --min-active=200 --beam=15.0 --lattice-beam=8.0 --acoustic-scale=0.1 --frames-per-chunk=50 --allow-partial=true --word-symbol-table=$WORDS"
status=0

# 1. Bit-identical scores.
"$KALDI/nnet3-compute" --use-priors=true "$MODEL" "$FEATS" "ark:$TMP/loglikes.ark" 2> "$TMP/compute.log" ||
  { tail -3 "$TMP/compute.log" >&2; exit 1; }
# The output dimension, from the first matrix's binary header.
dim=$(python3 - "$TMP/loglikes.ark" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read(4096)
i = data.index(b"\0BFM ")
print(struct.unpack("<i", data[i + 11:i + 15])[0])
EOF
)
printf 'input-node name=input dim=%s\ncomponent name=noop type=NoOpComponent dim=%s\ncomponent-node name=noop component=noop input=input\noutput-node name=output input=noop\n' \
  "$dim" "$dim" > "$TMP/noop.config"
"$KALDI/nnet3-init" "$TMP/noop.config" "$TMP/noop.raw" 2> /dev/null
"$KALDI/nnet3-am-init" "$MODEL" "$TMP/noop.raw" "$TMP/noop.mdl" 2> /dev/null
for det in true false; do
  for who in kaldi ours; do
    prog=$KALDI/nnet3-latgen-faster
    [ $who = ours ] && prog=$OURS/nnet3-latgen-faster
    # shellcheck disable=SC2086
    "$prog" $OPTS --determinize-lattice=$det "$TMP/noop.mdl" "$GRAPH" "ark:$TMP/loglikes.ark" \
      "ark,t:$TMP/$who.$det.lat" "ark,t:$TMP/$who.$det.words" "ark,t:$TMP/$who.$det.ali" 2> "$TMP/$who.$det.log" ||
      { echo "$who failed:" >&2; tail -3 "$TMP/$who.$det.log" >&2; exit 1; }
  done
  for x in lat words ali; do
    if cmp -s "$TMP/kaldi.$det.$x" "$TMP/ours.$det.$x"; then r=identical; else r=DIFFERENT; status=1; fi
    echo "exact scores, --determinize-lattice=$det: $x $r ($(grep -c . "$TMP/kaldi.$det.$x") lines)"
  done
done

# 2. The real network.
for who in kaldi ours; do
  prog=$KALDI/nnet3-latgen-faster
  [ $who = ours ] && prog=$OURS/nnet3-latgen-faster
  # shellcheck disable=SC2086
  "$prog" $OPTS "$MODEL" "$GRAPH" "$FEATS" "ark:$TMP/$who.real.lat" \
    "ark,t:$TMP/$who.real.words" "ark,t:$TMP/$who.real.ali" 2> "$TMP/$who.real.log" ||
    { echo "$who failed:" >&2; tail -3 "$TMP/$who.real.log" >&2; exit 1; }
done
for x in words ali; do
  if cmp -s "$TMP/kaldi.real.$x" "$TMP/ours.real.$x"; then r=identical; else r=DIFFERENT; status=1; fi
  echo "real network: $x $r"
done
python3 - "$TMP/kaldi.real.lat" "$TMP/ours.real.lat" <<'EOF'
import struct, sys
# Kaldi's binary CompactLattice archives: "key " then OpenFst's VectorFst
# (header; per state the final weight, the arc count, the arcs), a weight
# being two floats and a transition-id string (count, ints).
def read(path):
    d, i, lats = open(path, "rb").read(), 0, {}
    def ints(fmt):
        nonlocal i
        v = struct.unpack_from(fmt, d, i); i += struct.calcsize(fmt); return v
    def text():
        nonlocal i
        n, = ints("<i"); i += n
    def weight():
        a, b, n = ints("<ffi"); return a, b, ints("<%di" % n)
    while i < len(d):
        j = d.index(b" ", i); key = d[i:j].decode(); i = j + 1
        if d[i:i + 2] == b"\0B": i += 2
        ints("<i"); text(); text(); ints("<ii")
        _, start, num_states, _ = ints("<Qqqq")
        states = []
        for _ in range(num_states):
            final = weight(); num_arcs, = ints("<q")
            states.append((final, [(ints("<ii"), weight(), ints("<i")) for _ in range(num_arcs)]))
        lats[key] = (start, states)
    return lats
def weights(lat):  # (structure, costs) of every final weight and arc
    for final, arcs in lat[1]:
        yield (final[2],), final[:2]
        for labels, w, dest in arcs:
            yield (labels, w[2], dest), w[:2]
k, o = read(sys.argv[1]), read(sys.argv[2])
same, worst, worst_rel = 0, 0.0, 0.0
for utt, lat in k.items():
    if utt not in o or lat[0] != o[utt][0] or len(lat[1]) != len(o[utt][1]): continue
    a, b = list(weights(lat)), list(weights(o[utt]))
    if len(a) != len(b) or any(x[0] != y[0] for x, y in zip(a, b)): continue
    same += 1
    for x, y in zip(a, b):
        for p, q in zip(x[1], y[1]):
            if p != q:
                worst = max(worst, abs(p - q))
                worst_rel = max(worst_rel, abs(p - q) / max(abs(p), abs(q), 1.0))
print("real network: lattices of %d utterances, %d with the same structure and alignments; "
      "largest weight difference %.3g absolute, %.3g relative (unscaled costs)"
      % (len(k), same, worst, worst_rel))
EOF
equivalent=$KALDI/../latbin/lattice-equivalent
if [ -x "$equivalent" ]; then
  for delta in 0.001 0.0001; do
    n=$("$equivalent" --delta=$delta --max-error-proportion=1 "ark:$TMP/kaldi.real.lat" \
      "ark:$TMP/ours.real.lat" 2>&1 |
      sed -n 's/.*Done \([0-9]*\) lattices, \([0-9]*\) were equivalent.*/\2 of \1/p')
    echo "real network: Kaldi's lattice-equivalent --delta=$delta: $n equivalent"
  done
fi
exit $status
