#!/usr/bin/env bash
# format_lm.sh: a test "lang" directory with the grammar G.fst made from an
# ARPA language model, as Kaldi's utils/format_lm.sh does (same arguments,
# same files): the lang directory is copied, the ARPA file (gzipped or not)
# compiled with arpa2fst (#0 on back-off arcs, <s> and </s> as epsilons,
# n-grams with words missing from words.txt skipped with a warning), and G
# checked for cycles that accept only words with empty pronunciations
# (which would make L o G non-determinizable).
#
# Programs: arpa2fst, fstisstochastic (ours); fstcompile, fstarcsort,
# fstcompose, fstinfo (OpenFst).
set -e -o pipefail
export LC_ALL=C
if [ $# -ne 4 ]; then
  echo "Usage: format_lm.sh <lang-dir> <arpa-LM> <lexicon> <out-dir>" >&2
  echo "e.g.: utils/format_lm.sh data/lang data/local/lm/3gram.arpa.gz data/local/dict/lexicon.txt data/lang_test" >&2
  echo "Compiles the ARPA language model into <out-dir>/G.fst, beside a copy of <lang-dir>." >&2
  exit 1
fi
lang=$1 lm=$2 lexicon=$3 out=$4
for f in "$lang/words.txt" "$lm" "$lexicon"; do
  [ -f "$f" ] || { echo "format_lm.sh: $f does not exist" >&2; exit 1; }
done
mkdir -p "$out"
echo "format_lm.sh: compiling '$lm' into $out/G.fst"

if [ ! "$lang" -ef "$out" ]; then
  rm -rf "$out/phones"
  for f in phones.txt words.txt topo L.fst L_disambig.fst phones oov.int oov.txt; do
    cp -r "$lang/$f" "$out"
  done
fi

case "$lm" in
  *.gz) reader="gunzip -c" ;;
  *) reader=cat ;;
esac
$reader "$lm" | arpa2fst --disambig-symbol='#0' --read-symbol-table="$out/words.txt" - "$out/G.fst"

# G's states should sum to about one: the first number near 0 (the second
# is not, because of the back-off arcs). For information only.
fstisstochastic "$out/G.fst" || true

# Words without a pronunciation, and #0, are epsilons for L o G: a cycle
# in G that accepts only those would stop determinization.
check=$out/tmpdir.g
mkdir -p "$check"
awk 'NF == 1 { print "0 0", $1, $1 } END { print "0 0 #0 #0"; print "0" }' \
  "$lexicon" > "$check/select_empty.fst.txt"
fstcompile --isymbols="$out/words.txt" --osymbols="$out/words.txt" \
  "$check/select_empty.fst.txt" | fstarcsort --sort_type=olabel |
  fstcompose - "$out/G.fst" > "$check/empty_words.fst"
if fstinfo "$check/empty_words.fst" | grep cyclic | grep -qw y; then
  echo "format_lm.sh: the language model has cycles of words without pronunciations" >&2
  exit 1
fi
rm -r "$check"
echo "format_lm.sh: made $out/G.fst from '$lm'"
