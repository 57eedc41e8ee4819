#!/usr/bin/env bash
# Building a decoding graph the Kaldi way with our egs/utils scripts and
# programs: prepare_lang.sh, format_lm.sh and mkgraph.sh on a two-word
# lexicon, a bigram LM and a monophone tree (tests/data/graph); every file
# they write is compared with what Kaldi's own scripts and programs wrote
# for the same inputs (tests/data/graph/make-golden.sh): byte for byte,
# except L.fst and L_disambig.fst (our lexicon FST lists the same arcs in
# another order: the same text after sorting). Ha.fst and HCLGa.fst, which
# mkgraph.sh deletes, are remade with the same program calls. Then bad
# input: one-line errors, exit 1 (an LM word missing from the lexicon: a
# warning per skipped n-gram, exit 0, as Kaldi's arpa2fst).
BIN=$1 DATA=$2
G=$DATA/graph K=$DATA/graph/kaldi
U=$(cd "$(dirname "$0")/../../egs/utils" && pwd)
. "$(dirname "$0")/lib.sh"
need libfst-tools 'command -v fstcompile && command -v fstarcsort && command -v fstconvert && command -v fstinfo && command -v fstcompose && command -v fstprint'
need python3 'command -v python3'

# same_text NAME A B: same lines in any order (FSTs: fstprint first).
same_sorted_fst() {
  cmp -s <(fstprint "$2" | sort) <(fstprint "$3" | sort) ||
    fail "$1: $2 and $3 have different arcs"
}

cp -r "$G/dict" dict
expect_ok prepare_lang "$U/prepare_lang.sh dict '<unk>' tmp lang"
for f in phones.txt words.txt topo oov.int oov.txt \
  phones/{silence,nonsilence,optional_silence,disambig,context_indep}.{txt,int,csl} \
  phones/{sets,extra_questions,roots}.{txt,int} phones/word_boundary.{txt,int} \
  phones/align_lexicon.{txt,int} phones/wdisambig{.txt,_phones.int,_words.int}; do
  same_file "prepare_lang $f" "lang/$f" "$K/lang/$f"
done
same_sorted_fst "prepare_lang L.fst" lang/L.fst "$K/lang/L.fst"
same_sorted_fst "prepare_lang L_disambig.fst" lang/L_disambig.fst "$K/lang/L_disambig.fst"

expect_ok format_lm "$U/format_lm.sh lang $G/bigram.arpa.gz dict/lexicon.txt lang_test"
same_file "format_lm G.fst" lang_test/G.fst "$K/lang_test/G.fst"
# Our L_disambig's arc order is not Kaldi's: the graph starts from Kaldi's.
cp "$K/lang/L_disambig.fst" lang_test/L_disambig.fst

cp -r "$G/mono" mono
expect_ok mkgraph "$U/mkgraph.sh lang_test mono graph"
for f in tmp/LG.fst tmp/CLG_1_0.fst tmp/ilabels_1_0 tmp/disambig_ilabels_1_0.int; do
  same_file "mkgraph $f" "lang_test/$f" "$K/lang_test/$f"
done
for f in HCLG.fst disambig_tid.int num_pdfs; do
  same_file "mkgraph $f" "graph/$f" "$K/graph/$f"
done
expect_ok make-h-transducer "make-h-transducer --disambig-syms-out=tid.int \
  --transition-scale=1.0 lang_test/tmp/ilabels_1_0 mono/tree mono/final.mdl > Ha.fst"
same_file "make-h-transducer Ha.fst" Ha.fst "$K/graph/Ha.fst"
expect_ok HCLGa "fsttablecompose Ha.fst lang_test/tmp/CLG_1_0.fst |
  fstdeterminizestar --use-log=true | fstrmsymbols tid.int | fstrmepslocal |
  fstminimizeencoded > HCLGa.fst"
same_file "HCLGa.fst" HCLGa.fst "$K/graph/HCLGa.fst"
# Up to date: nothing is remade.
expect_ok mkgraph-again "$U/mkgraph.sh lang_test mono graph | grep -q 'up to date'"

# Bad input: the ARPA file (a count that does not match, a bad line), the
# model (a tree with a phone the topology lacks), a graph that cannot be
# determinized.
gunzip -c "$G/bigram.arpa.gz" > lm.arpa
# (A count larger than the n-grams that follow is accepted, as by Kaldi.)
sed 's/^ngram 2=6$/ngram 2=5/' lm.arpa > bad-count.arpa
expect_error arpa-bad-count "'bad-count.arpa' line 19 .*5 n-grams of order 2" \
  "arpa2fst --read-symbol-table=lang/words.txt bad-count.arpa G.fst"
# An LM word that the lexicon lacks: its n-grams are skipped with a warning
# naming the line, as by Kaldi (not an error).
sed 's/yes/maybe/g' lm.arpa > oov.arpa
expect_exit arpa-oov-word 0 "^WARNING .*'oov.arpa' line 9 .* skipped: word 'maybe' not in symbol table" \
  "arpa2fst --read-symbol-table=lang/words.txt oov.arpa G.fst"
sed 's/^-0.15490\tno yes$/-0.15490/' lm.arpa > bad-line.arpa
expect_error arpa-bad-line "'bad-line.arpa' line 15 .*Invalid n-gram data line" \
  "arpa2fst --read-symbol-table=lang/words.txt bad-line.arpa G.fst"
# The 5-state topology for every phone: the tree has no pdf for the 4th
# state of the 3-state phones (Kaldi warns and goes on; we stop).
awk 'NR == 1 { print; next } NR <= 10 { next } { print }' lang/topo |
  sed '4s/.*/'"$(seq -s ' ' 1 30)"'/' > bad-topo
expect_error tree-topo-mismatch 'position 3 of phone 11.*does not match the topology' \
  "nnet3-am-init mono/tree bad-topo mono/final.mdl bad.mdl"
printf '0 1 1 1\n0 2 1 2\n1 1 2 0\n2 2 2 0\n1\n2\n' | fstcompile > ambiguous.fst
expect_error not-determinizable 'not functional|not determinizable' \
  "fstdeterminizestar ambiguous.fst out.fst"
finish
