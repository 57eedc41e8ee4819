#!/usr/bin/env bash
# Writes the golden graph files used by tests/unit/fstext/kaldi-fst-io-test.cc
# with Kaldi's and OpenFst's own programs (the tests do not need them):
#
#   graphs-in.txt  a text archive of two graphs, written by hand in Kaldi's
#                  fsts text form (key, newline, AT&T lines, blank line),
#                  weights with more digits than Kaldi prints
#   graphs.ark     Kaldi's binary archive of it:  fstcopy ark,t:graphs-in.txt ark:graphs.ark
#   graphs.txt     Kaldi's text archive back:     fstcopy ark:graphs.ark ark,t:graphs.txt
#                  (weights at 6 significant digits)
#   graph.fst      the first graph compiled by OpenFst (a VectorFst file):
#                  fstcompile graph.txt.fst graph.fst
#   graph-const.fst the same as a ConstFst, as Kaldi's mkgraph.sh writes
#                  HCLG.fst:  fstconvert --fst_type=const graph.fst graph-const.fst
#   words.txt      a symbol table covering the graph's output labels 5..7
#
# Run from this directory with Kaldi's fstbin on PATH
# (PATH=/opt/kaldi/src/fstbin:$PATH) and OpenFst's tools (libfst-tools).
set -euo pipefail
printf 'g1 \n0\t1\t3\t5\t0.5\n0\t2\t4\t0\n1\t3\t5\t6\t1.25\n2\t3\t6\t7\t3.14159265\n3\t0.693147181\n\ng2 \n0\t1\t1\t1\n1\n\n' > graphs-in.txt
fstcopy ark,t:graphs-in.txt ark:graphs.ark
fstcopy ark:graphs.ark ark,t:graphs.txt
printf '0\t1\t3\t5\t0.5\n0\t2\t4\t0\n1\t3\t5\t6\t1.25\n2\t3\t6\t7\t3.14159265\n3\t0.693147181\n' > graph.txt.fst
fstcompile graph.txt.fst graph.fst
fstconvert --fst_type=const graph.fst graph-const.fst
rm graph.txt.fst
printf '<eps> 0\na 1\nb 2\nc 3\nd 4\nfive 5\nsix 6\nseven 7\n' > words.txt
