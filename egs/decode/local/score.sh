#!/usr/bin/env bash
# local/score.sh: the recipe's scoring hook, which steps/decode.sh calls as
#   local/score.sh [options] <data-dir> <lang-or-graph-dir> <decode-dir>
# Word error rates over LM weights and insertion penalties, by
# egs/utils/score.sh (its options: --cmd, --stage, --min-lmwt, --max-lmwt,
# --word-ins-penalty).
exec "$(dirname "$(readlink -f "$0")")/../../utils/score.sh" "$@"
