#!/usr/bin/env bash
# Decoding benchmark: our nnet3-latgen-faster against Kaldi's on the same
# model, graph and features, on one core: wall time, CPU time (user + sys,
# steadier than wall time on a shared machine), real-time factor, frames per
# second and peak memory (median of RUNS runs each, default 5, the two
# programs taking turns),
# our time split into network and search (+ lattice) from its --verbose=1
# lines, and the ratio of the two speeds. Also checks that both wrote the
# same words.
#
#   scripts/bench/decode.sh [build-dir]        # default: build
#
# Inputs (environment; the defaults are /work/refsys's nnet3 system when it
# exists): MODEL (final.mdl), GRAPH (HCLG.fst), FEATS (features rspecifier;
# default: every EVERY-th utterance (default 10: 15 utterances, 4701 frames)
# of its test_hires set with the per-speaker mean normalization of
# steps/nnet3/decode.sh, written once by Kaldi's apply-cmvn, so that neither
# decoder pays for a feature pipe),
# WORDS (words.txt), EXTRA (more options for both, e.g. frame-subsampling),
# KALDI (Kaldi's nnet3-latgen-faster; default
# /opt/kaldi/src/nnet3bin/nnet3-latgen-faster), CORE (the CPU to pin to,
# default 0). The decoding options are those of Kaldi's steps/nnet3/
# decode.sh: --max-active=7000 --min-active=200 --beam=15 --lattice-beam=8
# --acoustic-scale=0.1 --frames-per-chunk=50 --allow-partial=true.
# Beside the table: the core's FP32 peak (scripts/bench/peak_flops.c, AVX2
# and AVX-512 FMAs, the best of 1-second rounds on the same core) and the
# network's rate: 2 x the network's parameters x the frames decoded, over our
# network time (a lower bound on the FLOPs done: chunk edges add rows).
# Needs python3, /usr/bin/time, cc and OpenBLAS (for the probe). Prints a
# table, then one JSON line: {"benchmark": "decode", ...}.
#
# MODE=batch (issue 32) times instead, on all cores, ours and Kaldi's
# nnet3-latgen-faster (one thread), nnet3-latgen-faster-parallel and
# nnet3-latgen-faster-batch --use-gpu=no at --num-threads=T for each T of
# THREADS (default "1 2 <cores>"), and with GPU=yes our
# nnet3-latgen-faster-batch --use-gpu=yes at GPU_THREADS (default
# "1 2 4 8 <cores>"), each RUNS times in turn (KALDI_PARALLEL, KALDI_BATCH:
# Kaldi's programs, default beside KALDI): wall, CPU, frames per second,
# real-time factor, peak memory, each of ours over Kaldi's same program and
# thread count, our time shares (model busy, search busy per thread,
# waiting), the batch runs over Kaldi's nnet3-latgen-faster-parallel
# --num-threads=2 (the issue's target), the GPU's scaling over one search
# thread, the load average before and after (the machine is shared), the
# words of every run checked against Kaldi's one-thread run. JSON line:
# {"benchmark": "decode-batch", ...}.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ -d "$BUILD" ] || BUILD=$ROOT/$1
OURS=$BUILD/bin/nnet3-latgen-faster
KALDI=${KALDI:-/opt/kaldi/src/nnet3bin/nnet3-latgen-faster}
RUNS=${RUNS:-5}
CORE=${CORE:-0}
REF=/work/refsys/s5
MODEL=${MODEL:-$REF/exp/nnet3/tdnn/final.mdl}
GRAPH=${GRAPH:-$REF/exp/tri1/graph_big/HCLG.fst}
FEATS=${FEATS:-}
EVERY=${EVERY:-10}
WORDS=${WORDS:-$(dirname "$GRAPH")/words.txt}
EXTRA=${EXTRA:-}
[ -x "$OURS" ] || { echo "decode.sh: $OURS not found; build it first (ninja -C $BUILD bin/nnet3-latgen-faster)" >&2; exit 1; }
[ -x "$KALDI" ] || { echo "decode.sh: Kaldi's program $KALDI not found (set KALDI=...)" >&2; exit 1; }
for f in "$MODEL" "$GRAPH" "$WORDS"; do
  [ -f "$f" ] || { echo "decode.sh: $f not found (set MODEL, GRAPH, FEATS, WORDS)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "decode.sh: /usr/bin/time is needed" >&2; exit 1; }
command -v python3 > /dev/null || { echo "decode.sh: python3 is needed" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "$FEATS" ]; then
  cmvn=$(dirname "$KALDI")/../featbin/apply-cmvn
  [ -x "$cmvn" ] || { echo "decode.sh: set FEATS (Kaldi's apply-cmvn not found at $cmvn)" >&2; exit 1; }
  data=$REF/data/test_hires
  awk -v n="$EVERY" 'NR % n == 1' "$data/feats.scp" > "$TMP/feats.scp"
  "$cmvn" --norm-means=true --norm-vars=false --utt2spk=ark:"$data/utt2spk" \
    scp:"$data/cmvn.scp" scp:"$TMP/feats.scp" ark:"$TMP/feats.ark" 2> /dev/null
  FEATS=ark:$TMP/feats.ark
fi
# The core's peak (as scripts/bench/cpu.sh measures it) and the network's size.
peak="0 0"
if command -v cc > /dev/null &&
  cc -O2 -mavx2 -mfma "$ROOT/scripts/bench/peak_flops.c" -o "$TMP/peak_flops" -lopenblas 2> /dev/null; then
  peak=$(OPENBLAS_NUM_THREADS=1 taskset -c "$CORE" "$TMP/peak_flops" 1 |
    awk '/^peak_gflops/ {a = $2} /^peak512_gflops/ {b = $2} END {print a, b}')
fi
params=$("$BUILD/bin/nnet3-am-info" "$MODEL" 2> /dev/null |
  awk -F'[:=] *' '/^num-parameters/ && !n {print $2; n = 1}')
OPTS="--max-active=7000 --min-active=200 --beam=15.0 --lattice-beam=8.0 --acoustic-scale=0.1 --frames-per-chunk=50 --allow-partial=true --word-symbol-table=$WORDS $EXTRA"

if [ "${MODE:-serial}" = batch ]; then
  . "$ROOT/scripts/bench/decode-batch.sh"
  exit 0
fi

# One core, one thread for every library.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
for run in $(seq 1 "$RUNS"); do
  for who in ours kaldi; do
    prog=$OURS; verbose=--verbose=1
    [ $who = kaldi ] && { prog=$KALDI; verbose=; }
    # shellcheck disable=SC2086
    /usr/bin/time -f 'MAXRSS %M CPU %U %S' -o "$TMP/$who.$run.time" \
      taskset -c "$CORE" "$prog" $verbose $OPTS "$MODEL" "$GRAPH" "$FEATS" \
      "ark:$TMP/$who.lat" "ark,t:$TMP/$who.words" 2> "$TMP/$who.$run.log" ||
      { echo "decode.sh: $who failed:" >&2; tail -5 "$TMP/$who.$run.log" >&2; exit 1; }
  done
done
cmp -s "$TMP/ours.words" "$TMP/kaldi.words" && same_words=true || same_words=false

# shellcheck disable=SC2086 # $peak is two numbers
python3 - "$TMP" "$RUNS" "$same_words" "$MODEL" "$GRAPH" $peak "${params:-0}" <<'EOF'
import json, re, statistics, sys

tmp, runs, same_words, model, graph = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
peak_avx2, peak_avx512, params = float(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8])

def parse(who, run):
    log = open("%s/%s.%d.log" % (tmp, who, run)).read()
    m = re.search(r"Time taken ([0-9.e+-]+)s: real-time factor assuming 100 frames/sec is ([0-9.e+-]+)", log)
    frames = int(re.search(r"Overall log-likelihood per frame is \S+ over (\d+) frames", log).group(1))
    t = re.search(r"MAXRSS (\d+) CPU ([0-9.]+) ([0-9.]+)", open("%s/%s.%d.time" % (tmp, who, run)).read())
    r = {"seconds": float(m.group(1)), "rtf": float(m.group(2)), "frames": frames,
         "rss_mb": int(t.group(1)) / 1024.0, "cpu": float(t.group(2)) + float(t.group(3))}
    t = re.search(r"Network computation took ([0-9.e+-]+)s, search and lattice ([0-9.e+-]+)s", log)
    if t:
        r["network"], r["search"] = float(t.group(1)), float(t.group(2))
    return r

res = {who: [parse(who, i) for i in range(1, runs + 1)] for who in ("ours", "kaldi")}
med = lambda who, key: statistics.median(r[key] for r in res[who])
print("%-6s %9s %9s %8s %10s %9s %9s %9s" % ("", "seconds", "CPU s", "RTF", "frames/s", "network", "search", "RSS MB"))
summary = {}
for who in ("ours", "kaldi"):
    s = med(who, "seconds")
    frames = res[who][0]["frames"]
    row = {"seconds": s, "cpu_seconds": med(who, "cpu"), "rtf": med(who, "rtf"),
           "frames_per_second": frames / s, "peak_rss_mb": med(who, "rss_mb")}
    if "network" in res[who][0]:
        row["network_seconds"], row["search_seconds"] = med(who, "network"), med(who, "search")
    summary[who] = row
    print("%-6s %9.3f %9.3f %8.4f %10.1f %9s %9s %9.1f" % (
        who, s, row["cpu_seconds"], row["rtf"], row["frames_per_second"],
        "%.3f" % row["network_seconds"] if "network_seconds" in row else "-",
        "%.3f" % row["search_seconds"] if "search_seconds" in row else "-", row["peak_rss_mb"]))
ratio = summary["kaldi"]["seconds"] / summary["ours"]["seconds"]
cpu_ratio = summary["kaldi"]["cpu_seconds"] / summary["ours"]["cpu_seconds"]
print("throughput ours/kaldi: %.2fx wall, %.2fx CPU (median of %d runs, one core); same words: %s"
      % (ratio, cpu_ratio, runs, same_words))
net_gflops = 0.0
if params > 0 and summary["ours"].get("network_seconds", 0) > 0:
    net_gflops = 2 * params * res["ours"][0]["frames"] / summary["ours"]["network_seconds"] / 1e9
print("core FP32 peak: %.1f GFLOP/s (AVX2 FMA), %.1f (AVX-512; 0 = none); our network: "
      "%.1f GFLOP/s (2 x %d parameters x frames / network time)"
      % (peak_avx2, peak_avx512, net_gflops, params))
print(json.dumps({"benchmark": "decode", "model": model, "graph": graph, "runs": runs,
                  "peak_gflops_avx2": peak_avx2, "peak_gflops_avx512": peak_avx512,
                  "network_gflops": net_gflops,
                  "ours": summary["ours"], "kaldi": summary["kaldi"],
                  "speedup": ratio, "cpu_speedup": cpu_ratio, "same_words": same_words == "true"}))
EOF
