#!/usr/bin/env bash
# local/plot_progress.sh: plots training progress from the diagnostics logs.
#
#   local/plot_progress.sh <exp-dir>
#
# Reads <exp-dir>/log/compute_prob_{train,valid}.<iter>.log (the lines
# "Overall log-likelihood for 'output' is X per frame" and "Overall accuracy
# for 'output' is A per frame" of nnet3-compute-prob) and writes
# <exp-dir>/progress.txt (iteration, train and valid objective, train and
# valid accuracy) and <exp-dir>/progress.png (gnuplot): objective and accuracy
# per iteration, train and validation.
set -euo pipefail
if [ $# -ne 1 ]; then echo "Usage: $0 <exp-dir>" >&2; exit 1; fi
dir=$1
num_iters=$(cat $dir/num_iters)

value() {  # value <log> <objective|accuracy>
  local pattern="Overall log-likelihood for 'output' is"
  [ $2 = accuracy ] && pattern="Overall accuracy for 'output' is"
  { grep -o "$pattern [-0-9.e+inf]*" $1 2> /dev/null || echo "? ?"; } | awk 'NR == 1 { print $NF }'
}

{
  echo "# iteration train-objective valid-objective train-accuracy valid-accuracy"
  for iter in $(seq 0 $num_iters); do
    t=$dir/log/compute_prob_train.$iter.log v=$dir/log/compute_prob_valid.$iter.log
    # The last model's diagnostics are the ".final" logs.
    [ $iter -eq $num_iters ] && [ ! -f $t ] && t=$dir/log/compute_prob_train.final.log &&
      v=$dir/log/compute_prob_valid.final.log
    [ -f $t ] || continue
    echo "$iter $(value $t objective) $(value $v objective) $(value $t accuracy) $(value $v accuracy)"
  done
} > $dir/progress.txt

name=$(basename $dir)
gnuplot <<GP
set terminal pngcairo size 1000,420 font ",10"
set output "$dir/progress.png"
set datafile missing "?"
set multiplot layout 1,2 title "$name: training progress"
set xlabel "iteration"
set grid
set key bottom right
set title "objective (log-likelihood per frame)"
plot "$dir/progress.txt" using 1:2 with linespoints title "train", \
     "" using 1:3 with linespoints title "validation"
set title "accuracy"
plot "$dir/progress.txt" using 1:4 with linespoints title "train", \
     "" using 1:5 with linespoints title "validation"
unset multiplot
GP
echo "$0: wrote $dir/progress.png"
