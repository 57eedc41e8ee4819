#!/usr/bin/env bash
# best_wer.sh: the lowest word error rate among compute-wer result lines.
#
#   grep WER exp/decode/wer_* | egs/utils/best_wer.sh
#   %WER 4.64 [ 38 / 819, 6 ins, 14 del, 18 sub ] exp/decode/wer_7_0.0
#
# Each input line holds "%WER <rate> [ ... ]", optionally after "<file>:"
# (grep's prefix); the line with the lowest rate (the first of equal ones)
# is printed with its file name moved to the end and runs of blanks
# squeezed, the form Kaldi's scoring scripts read the best LM weight and
# penalty from. Prints nothing if no line has a rate.
exec awk '
  {
    at = index($0, "%WER")
    if (at == 0) next
    rest = substr($0, at)
    split(rest, words, " ")
    rate = words[2] + 0
    if (found && rate >= best) next
    found = 1; best = rate
    file = substr($0, 1, at - 1)
    sub(/[ \t]*:[ \t]*$/, "", file)
    line = rest (file == "" ? "" : " " file)
    gsub(/[ \t]+/, " ", line)
    sub(/ $/, "", line)
  }
  END { if (found) print line }' "$@"
