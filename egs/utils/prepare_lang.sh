#!/usr/bin/env bash
# prepare_lang.sh: builds a "lang" directory (phones and words symbol
# tables, phone sets, the HMM topology, the lexicon FSTs L.fst and
# L_disambig.fst) from a dictionary directory, as Kaldi's
# utils/prepare_lang.sh does, with the same arguments and the same files.
#
# Programs: fstcompile, fstarcsort (OpenFst), fstaddselfloops (ours);
# helpers in lang/ (python3).
help_message="Usage: prepare_lang.sh [options] <dict-src-dir> <oov-dict-entry> <tmp-dir> <lang-dir>
e.g.: utils/prepare_lang.sh data/local/dict '<unk>' data/local/lang data/lang
<dict-src-dir> holds lexicon.txt and/or lexiconp.txt, silence_phones.txt,
nonsilence_phones.txt, optional_silence.txt and optionally
extra_questions.txt; <oov-dict-entry> is the lexicon's word for unknown words.
Options:
  --num-sil-states N                # default 5: states of silence HMMs
  --num-nonsil-states N             # default 3: states of other HMMs
  --position-dependent-phones BOOL  # default true: phones marked _B, _I,
                                    # _E, _S by their place in the word
  --share-silence-phones BOOL       # default false: one tree root (one
                                    # model) for all silence phones
  --sil-prob P                      # default 0.5: probability of the
                                    # optional silence between words"
set -o pipefail
export LC_ALL=C

num_sil_states=5
num_nonsil_states=3
position_dependent_phones=true
share_silence_phones=false
sil_prob=0.5

utils=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$utils/parse_options.sh" || exit 1
if [ $# -ne 4 ]; then
  printf "%s\n" "$help_message" >&2
  exit 1
fi
src=$1 oov_word=$2 tmp=$3 dir=$4
PYTHON=${PYTHON:-python3}
die() { echo "prepare_lang.sh: $*" >&2; exit 1; }

# sym2int SYMTAB [FIRST_FIELD [LAST_FIELD]] < in > out: symbols to integers
# in the given (1-based) fields; an unknown symbol is an error.
sym2int() {
  awk -v table="$1" -v first="${2:-1}" -v last="${3:-0}" '
    BEGIN { while ((getline line < table) > 0) {
              n = split(line, f, " "); if (n == 2) id[f[1]] = f[2] } }
    { out = ""
      for (i = 1; i <= NF; i++) {
        x = $i
        if (i >= first && (last == 0 || i <= last)) {
          if (!(x in id)) { printf("sym2int: %s has no symbol %s\n", table, x) > "/dev/stderr"; exit 1 }
          x = id[x]
        }
        out = (i == 1 ? x : out " " x)
      }
      print out }'
}
# apply_map MAP < in > out: each field replaced by its entry in MAP (lines
# "key value..."), fields joined by single spaces.
apply_map() {
  awk -v map="$1" '
    BEGIN { while ((getline line < map) > 0) {
              n = split(line, f, " "); v = ""
              for (i = 2; i <= n; i++) v = (i == 2 ? f[i] : v " " f[i])
              m[f[1]] = v } }
    { out = ""
      for (i = 1; i <= NF; i++) {
        if (!($i in m)) { printf("apply_map: no entry for %s in %s\n", $i, map) > "/dev/stderr"; exit 1 }
        out = (i == 1 ? m[$i] : out " " m[$i])
      }
      print out }'
}
# to_csl: one integer per line -> colon-separated.
to_csl() { paste -s -d: -; }

"$PYTHON" "$utils/lang/check_dict.py" "$src" || die "bad dictionary directory $src"
[ -d "$dir/phones" ] && rm -r "$dir/phones"
mkdir -p "$dir/phones" "$tmp" || exit 1

# lexicon.txt and lexiconp.txt: each is made from the other when missing.
if [ ! -f "$src/lexicon.txt" ]; then
  echo "prepare_lang.sh: making $src/lexicon.txt from $src/lexiconp.txt"
  sed -E 's/^([^ \t]+[ \t]+)[^ \t]+[ \t]+/\1/' "$src/lexiconp.txt" > "$src/lexicon.txt" || exit 1
fi
if [ ! -f "$src/lexiconp.txt" ]; then
  echo "prepare_lang.sh: making $src/lexiconp.txt from $src/lexicon.txt"
  sed -E 's/^([^ \t]+[ \t]+)([^ \t].*)$/\11.0\t\2/' "$src/lexicon.txt" > "$src/lexiconp.txt" || exit 1
fi

# Word-position-dependent phones: phone_map.txt lists each phone's
# variants (silence phones also stand for themselves, between words).
if $position_dependent_phones; then
  awk '{ printf("%s %s", $1, $2)
         if (NF == 3) { print " " $3 "_S"; next }
         printf(" %s_B", $3); for (i = 4; i < NF; i++) printf(" %s_I", $i)
         print " " $NF "_E" }' "$src/lexiconp.txt" > "$tmp/lexiconp.txt" || exit 1
  { awk '{ for (i = 1; i <= NF; i++)
             print $i, $i, $i "_B", $i "_E", $i "_I", $i "_S" }' "$src/silence_phones.txt"
    awk '{ for (i = 1; i <= NF; i++)
             print $i, $i "_B", $i "_E", $i "_I", $i "_S" }' "$src/nonsilence_phones.txt"
  } > "$tmp/phone_map.txt"
else
  cp "$src/lexiconp.txt" "$tmp/lexiconp.txt" || exit 1
  cat "$src/silence_phones.txt" "$src/nonsilence_phones.txt" |
    awk '{ for (i = 1; i <= NF; i++) print $i, $i }' > "$tmp/phone_map.txt"
fi

# Phone sets (one per line of the phone lists) and tree roots.
if $share_silence_phones; then
  { awk '{ printf("%s ", $0) } END { printf("\n") }' "$src/silence_phones.txt"
    cat "$src/nonsilence_phones.txt"; } | apply_map "$tmp/phone_map.txt" > "$dir/phones/sets.txt" || exit 1
  awk '{ print (NR == 1 ? "not-shared not-split" : "shared split"), $0 }' \
    "$dir/phones/sets.txt" > "$dir/phones/roots.txt"
else
  cat "$src/silence_phones.txt" "$src/nonsilence_phones.txt" |
    apply_map "$tmp/phone_map.txt" > "$dir/phones/sets.txt" || exit 1
  awk '{ print "shared split", $0 }' "$dir/phones/sets.txt" > "$dir/phones/roots.txt"
fi
for kind in silence nonsilence; do
  apply_map "$tmp/phone_map.txt" < "$src/${kind}_phones.txt" |
    tr ' ' '\n' > "$dir/phones/$kind.txt" || exit 1
done
cp "$src/optional_silence.txt" "$dir/phones/optional_silence.txt"
cp "$dir/phones/silence.txt" "$dir/phones/context_indep.txt"
{ [ -f "$src/extra_questions.txt" ] && apply_map "$tmp/phone_map.txt" < "$src/extra_questions.txt"
  if $position_dependent_phones; then
    for suffix in _B _E _I _S; do
      awk -v s=$suffix '{ for (i = 1; i <= NF; i++) printf("%s%s ", $i, s) }
                        END { printf("\n") }' "$src/nonsilence_phones.txt"
    done
    for suffix in "" _B _E _I _S; do
      awk -v s="$suffix" '{ for (i = 1; i <= NF; i++) printf("%s%s ", $i, s) }
                          END { printf("\n") }' "$src/silence_phones.txt"
    done
  fi; } > "$dir/phones/extra_questions.txt"

# Disambiguation symbols: #1.. on the lexicon, one more for the optional
# silence, #0 for G's back-off arcs.
ndisambig=$("$PYTHON" "$utils/lang/add_disambig.py" "$tmp/lexiconp.txt" \
  "$tmp/lexiconp_disambig.txt") || die "adding disambiguation symbols failed"
ndisambig=$((ndisambig + 1))
echo $ndisambig > "$tmp/lex_ndisambig"
seq 0 $ndisambig | sed 's/^/#/' > "$dir/phones/disambig.txt"

# Symbol tables.
{ echo "<eps>"; cat "$dir/phones/silence.txt" "$dir/phones/nonsilence.txt" \
    "$dir/phones/disambig.txt"; } | awk '{ print $1, NR - 1 }' > "$dir/phones.txt"
if $position_dependent_phones; then
  cat "$dir/phones/silence.txt" "$dir/phones/nonsilence.txt" |
    awk '{ kind = "nonword"
           if ($1 ~ /_B$/) kind = "begin"; else if ($1 ~ /_E$/) kind = "end"
           else if ($1 ~ /_I$/) kind = "internal"; else if ($1 ~ /_S$/) kind = "singleton"
           print $1, kind }' > "$dir/phones/word_boundary.txt"
elif [ -f "$src/word_boundary.txt" ]; then
  cp "$src/word_boundary.txt" "$dir/phones/word_boundary.txt"
fi
awk '{ print $1 }' "$tmp/lexiconp.txt" | sort -u |
  awk 'BEGIN { print "<eps>", 0 }
       $1 == "<s>" || $1 == "</s>" { print "prepare_lang.sh: " $1 " is in the lexicon" > "/dev/stderr"; exit 1 }
       { print $1, NR }
       END { print "#0", NR + 1; print "<s>", NR + 2; print "</s>", NR + 3 }' \
  > "$dir/words.txt" || exit 1

silphone=$(cat "$src/optional_silence.txt")
# Alignment lexicon: "word word phones", plus the optional silence.
{ awk '{ $2 = ""; print }' "$tmp/lexiconp.txt" | awk '{ $1 = $1; print }'
  echo "<eps> $silphone"; } > "$tmp/align_lexicon.txt"
awk '{ print $1, $0 }' "$tmp/align_lexicon.txt" | sort -u > "$dir/phones/align_lexicon.txt"
sym2int "$dir/phones.txt" 3 < "$dir/phones/align_lexicon.txt" |
  sym2int "$dir/words.txt" 1 2 > "$dir/phones/align_lexicon.int" || exit 1

# L.fst (for training) and the integer forms of the lists.
"$PYTHON" "$utils/lang/lexicon_fst.py" --sil-prob=$sil_prob --sil-phone="$silphone" \
    "$tmp/lexiconp.txt" |
  fstcompile --isymbols="$dir/phones.txt" --osymbols="$dir/words.txt" \
    --keep_isymbols=false --keep_osymbols=false |
  fstarcsort --sort_type=olabel > "$dir/L.fst" || die "making L.fst failed"

echo "$oov_word" > "$dir/oov.txt"
sym2int "$dir/words.txt" < "$dir/oov.txt" > "$dir/oov.int" ||
  die "the OOV word '$oov_word' is not in the lexicon"
echo '#0' > "$dir/phones/wdisambig.txt"
sym2int "$dir/phones.txt" < "$dir/phones/wdisambig.txt" > "$dir/phones/wdisambig_phones.int"
sym2int "$dir/words.txt" < "$dir/phones/wdisambig.txt" > "$dir/phones/wdisambig_words.int"
for f in silence nonsilence optional_silence disambig context_indep; do
  sym2int "$dir/phones.txt" < "$dir/phones/$f.txt" > "$dir/phones/$f.int" || exit 1
  to_csl < "$dir/phones/$f.int" > "$dir/phones/$f.csl"
done
for f in sets extra_questions; do
  sym2int "$dir/phones.txt" < "$dir/phones/$f.txt" > "$dir/phones/$f.int" || exit 1
done
sym2int "$dir/phones.txt" 3 < "$dir/phones/roots.txt" > "$dir/phones/roots.int" || exit 1
if [ -f "$dir/phones/word_boundary.txt" ]; then
  sym2int "$dir/phones.txt" 1 1 < "$dir/phones/word_boundary.txt" \
    > "$dir/phones/word_boundary.int" || exit 1
fi

"$PYTHON" "$utils/lang/make_topo.py" $num_nonsil_states $num_sil_states \
  "$(cat "$dir/phones/nonsilence.csl")" "$(cat "$dir/phones/silence.csl")" \
  > "$dir/topo" || die "making the topology failed"

# L_disambig.fst (for graphs): the lexicon with its disambiguation symbols,
# silence followed by #N, and self-loops that pass G's #0 through.
"$PYTHON" "$utils/lang/lexicon_fst.py" --sil-prob=$sil_prob --sil-phone="$silphone" \
    --sil-disambig="#$ndisambig" "$tmp/lexiconp_disambig.txt" |
  fstcompile --isymbols="$dir/phones.txt" --osymbols="$dir/words.txt" \
    --keep_isymbols=false --keep_osymbols=false |
  fstaddselfloops "$dir/phones/wdisambig_phones.int" "$dir/phones/wdisambig_words.int" |
  fstarcsort --sort_type=olabel > "$dir/L_disambig.fst" || die "making L_disambig.fst failed"

echo "prepare_lang.sh: made $dir ($(($(wc -l < "$dir/phones.txt") - 1)) phones and disambiguation symbols, $(($(wc -l < "$dir/words.txt") - 1)) words)"
exit 0
