#!/usr/bin/env bash
# local/prepare_lang_tree.sh: the lang directories, the digit-loop LM and the
# monophone tree.
#
#   local/prepare_lang_tree.sh <data-dir> <exp-dir>
#
# Writes <data-dir>/lang (prepare_lang.sh on <data-dir>/local/dict: position-
# dependent phones; 2 states per phone, so a phone needs 20 ms, which every
# phone espeak makes at the recipe's rates has; 3 for silence),
# <data-dir>/local/lm.arpa (a unigram over the 11 digit words and </s>, all
# equally likely), <data-dir>/lang_test (format_lm.sh: G.fst), and
# <exp-dir>/{tree,pdf_map,num_pdfs} (local/make_tree.py, copy-tree; the tree's
# pdf count from tree-info).
set -euo pipefail
[ $# -eq 2 ] || { echo "Usage: $0 <data-dir> <exp-dir>" >&2; exit 1; }
data=$1 dir=$2
mkdir -p $dir/log
prepare_lang.sh --num-nonsil-states 2 --num-sil-states 3 $data/local/dict '<unk>' \
  $data/local/lang_tmp $data/lang > $dir/log/prepare_lang.log 2>&1 ||
  { echo "$0: prepare_lang.sh failed, see $dir/log/prepare_lang.log" >&2; exit 1; }

words=$(awk '$1 != "<unk>" { print $1 }' $data/local/dict/lexicon.txt | sort -u)
num=$(( $(echo "$words" | wc -l) + 1 ))  # and </s>
{
  printf '\\data\\\nngram 1=%d\n\n\\1-grams:\n' $((num + 1))
  awk -v n=$num 'BEGIN { printf "%.6f\t</s>\n-99\t<s>\n", log(1 / n) / log(10) }'
  echo "$words" | awk -v n=$num '{ printf "%.6f\t%s\n", log(1 / n) / log(10), $1 }'
  printf '\n\\end\\\n'
} > $data/local/lm.arpa
format_lm.sh $data/lang $data/local/lm.arpa $data/local/dict/lexicon.txt $data/lang_test \
  > $dir/log/format_lm.log 2>&1 ||
  { echo "$0: format_lm.sh failed, see $dir/log/format_lm.log" >&2; exit 1; }

$PYTHON local/make_tree.py $data/lang $dir/tree.txt $dir/pdf_map
copy-tree $dir/tree.txt $dir/tree 2> $dir/log/copy_tree.log
tree-info $dir/tree 2> /dev/null | awk '$1 == "num-pdfs" { print $2 }' > $dir/num_pdfs
echo "$0: $(cat $dir/num_pdfs) pdfs"
