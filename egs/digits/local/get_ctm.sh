#!/usr/bin/env bash
# local/get_ctm.sh: the CTM of a decoding directory's best paths at its best
# LM weight and insertion penalty, as Kaldi's steps/get_ctm.sh: word
# boundaries from lattice-align-words (position-dependent phones), times in
# seconds (10 ms frames).
#
#   local/get_ctm.sh <lang-dir> <model> <decode-dir>
#
# Reads <decode-dir>/lat.*.gz and scoring_kaldi/best_wer (its wer_<lmwt>_<wip>);
# writes <decode-dir>/ctm: "<utt> 1 <start> <duration> <word>" per word.
set -euo pipefail
[ $# -eq 3 ] || { echo "Usage: $0 <lang-dir> <model> <decode-dir>" >&2; exit 1; }
lang=$1 model=$2 dir=$3
best=$(awk '{ print $NF }' $dir/scoring_kaldi/best_wer)
best=${best##*/wer_}
lmwt=${best%_*} wip=${best#*_}
mkdir -p $dir/log
lattice-add-penalty --word-ins-penalty=$wip "ark:gunzip -c $dir/lat.*.gz |" ark:- 2> $dir/log/ctm.log |
  lattice-1best --lm-scale=$lmwt ark:- ark:- 2>> $dir/log/ctm.log |
  lattice-align-words $lang/phones/word_boundary.int $model ark:- ark:- 2>> $dir/log/ctm.log |
  nbest-to-ctm --frame-shift=0.01 ark:- - 2>> $dir/log/ctm.log |
  int2sym.sh -f 5 $lang/words.txt | sort > $dir/ctm
echo "$0: $dir/ctm: $(wc -l < $dir/ctm) words (LM weight $lmwt, penalty $wip)"
