#!/usr/bin/env bash
# local/plot_wer.sh: word error rate against the language-model weight.
#
#   local/plot_wer.sh <decode-dir>... <png-out>
#
# Reads each decoding directory's wer_<lmwt>_0.0 files (egs/utils/score.sh;
# insertion penalty 0) and writes <png-out>.txt (LM weight, then one WER
# column per directory) and <png-out> (gnuplot): one line per directory.
set -euo pipefail
[ $# -ge 2 ] || { echo "Usage: $0 <decode-dir>... <png-out>" >&2; exit 1; }
out=${*: -1}
dirs=("${@:1:$#-1}")
lmwts=$(ls "${dirs[0]}" | sed -n 's/^wer_\([0-9]*\)_0\.0$/\1/p' | sort -n)
[ -n "$lmwts" ] || { echo "$0: no wer_<lmwt>_0.0 files in ${dirs[0]}" >&2; exit 1; }
{
  echo "# lm-weight ${dirs[*]}"
  for w in $lmwts; do
    line=$w
    for d in "${dirs[@]}"; do
      line="$line $(awk '/%WER/ { print $2 }' $d/wer_${w}_0.0 2> /dev/null || echo '?')"
    done
    echo "$line"
  done
} > $out.txt
plots=""
for i in "${!dirs[@]}"; do
  plots="$plots${plots:+, }\"$out.txt\" using 1:$((i + 2)) with linespoints title \"$(basename ${dirs[$i]})\""
done
gnuplot <<GP
set terminal pngcairo noenhanced size 640,420 font ",10"
set output "$out"
set datafile missing "?"
set title "WER against the language-model weight (insertion penalty 0)"
set xlabel "LM weight"
set ylabel "%WER"
set grid
plot $plots
GP
echo "$0: wrote $out"
