#!/usr/bin/env bash
# local/score.sh: the scoring hook steps/decode.sh calls,
#   local/score.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
# egs/utils/score.sh: word error rates over LM weights and insertion
# penalties (wer_<lmwt>_<wip>, scoring_kaldi/best_wer).
exec "$NNET3_ROOT/egs/utils/score.sh" "$@"
