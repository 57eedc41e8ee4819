# MODE=batch of scripts/bench/decode.sh (sourced by it, after the inputs,
# $OPTS and $TMP are set): on all cores, for each thread count T of THREADS
# (default 1, 2 and the number of cores), ours and Kaldi's
# nnet3-latgen-faster-parallel --num-threads=T and
# nnet3-latgen-faster-batch --use-gpu=no --num-threads=T, and both
# nnet3-latgen-faster on one thread; with GPU=yes also our
# nnet3-latgen-faster-batch --use-gpu=yes at each of GPU_THREADS (default
# 1 2 4 8 and the number of cores) and its scaling over one search thread.
# See decode.sh's header.
BATCH=$BUILD/bin/nnet3-latgen-faster-batch
PARALLEL=$BUILD/bin/nnet3-latgen-faster-parallel
KDIR=$(dirname "$KALDI")
KALDI_PARALLEL=${KALDI_PARALLEL:-$KDIR/nnet3-latgen-faster-parallel}
KALDI_BATCH=${KALDI_BATCH:-$KDIR/nnet3-latgen-faster-batch}
cores=$(getconf _NPROCESSORS_ONLN)
THREADS=$(echo "${THREADS:-1 2 $cores}" | tr ' ' '\n' | sort -nu | tr '\n' ' ')
GPU=${GPU:-no}
GPU_THREADS=$(echo "${GPU_THREADS:-1 2 4 8 $cores}" | tr ' ' '\n' | sort -nu | tr '\n' ' ')
for p in "$BATCH" "$PARALLEL"; do
  [ -x "$p" ] || { echo "decode.sh: $p not found; build it first" >&2; exit 1; }
done
for p in "$KALDI_PARALLEL" "$KALDI_BATCH"; do
  [ -x "$p" ] || { echo "decode.sh: $p not found (set KALDI_PARALLEL, KALDI_BATCH)" >&2; exit 1; }
done
# Every network on one thread: the model thread's and Kaldi's per-thread
# products alike, so that the cores go to the threads each program asks for.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
cut -d' ' -f1 /proc/loadavg > "$TMP/load.before"
whos="faster1 kaldi-faster1"
for t in $THREADS; do whos="$whos parallel$t kaldi-parallel$t batch$t kaldi-batch$t"; done
if [ "$GPU" = yes ]; then
  for t in $GPU_THREADS; do whos="$whos gpu-batch$t"; done
fi
for run in $(seq 1 "$RUNS"); do
  for who in $whos; do
    case $who in
      faster1) cmd=$OURS ;;
      kaldi-faster1) cmd=$KALDI ;;
      parallel*) cmd="$PARALLEL --num-threads=${who#parallel}" ;;
      kaldi-parallel*) cmd="$KALDI_PARALLEL --num-threads=${who#kaldi-parallel}" ;;
      batch*) cmd="$BATCH --use-gpu=no --num-threads=${who#batch}" ;;
      kaldi-batch*) cmd="$KALDI_BATCH --num-threads=${who#kaldi-batch}" ;;
      gpu-batch*) cmd="$BATCH --use-gpu=yes --num-threads=${who#gpu-batch}" ;;
    esac
    # shellcheck disable=SC2086
    /usr/bin/time -f 'MAXRSS %M CPU %U %S WALL %e' -o "$TMP/$who.$run.time" \
      $cmd $OPTS "$MODEL" "$GRAPH" "$FEATS" "ark:$TMP/$who.lat" \
      2> "$TMP/$who.$run.log" ||
      { echo "decode.sh: $who failed:" >&2; tail -5 "$TMP/$who.$run.log" >&2; exit 1; }
    grep -E '^[^ ]+ ([^ ]+ )*$' "$TMP/$who.$run.log" | grep -v '^LOG\|^WARNING\|nnet3-latgen' |
      sort > "$TMP/$who.words"
  done
done
cut -d' ' -f1 /proc/loadavg > "$TMP/load.after"
same_words=true
for who in $whos; do
  cmp -s "$TMP/$who.words" "$TMP/kaldi-faster1.words" || same_words=false
done
echo "$cores" > "$TMP/nproc"

# shellcheck disable=SC2086
python3 - "$TMP" "$RUNS" "$same_words" "$MODEL" "$GRAPH" $peak $whos <<'PY'
import json, re, statistics, sys

tmp, runs, same_words, model, graph = sys.argv[1:6]
peak_avx2, peak_avx512 = float(sys.argv[6]), float(sys.argv[7])
runs, whos = int(runs), sys.argv[8:]
read = lambda name: open("%s/%s" % (tmp, name)).read()

def parse(who, run):
    log = read("%s.%d.log" % (who, run))
    frames = int(re.search(r"Overall (?:log-)?likelihood per frame (?:is|was) \S+ over (\d+) frames", log).group(1))
    t = re.search(r"MAXRSS (\d+) CPU ([0-9.]+) ([0-9.]+) WALL ([0-9.]+)", read("%s.%d.time" % (who, run)))
    r = {"wall": float(t.group(4)), "cpu": float(t.group(2)) + float(t.group(3)),
         "rss_mb": int(t.group(1)) / 1024.0, "frames": frames}
    m = re.search(r"Time shares of .*", log)
    if m:
        r["shares"] = m.group(0)
    return r

res = {who: [parse(who, i) for i in range(1, runs + 1)] for who in whos}
med = lambda who, key: statistics.median(r[key] for r in res[who])
print("%-18s %8s %8s %10s %9s %8s %10s" % ("", "wall s", "CPU s", "frames/s", "RTF", "RSS MB", "vs kaldi"))
summary = {}
for who in whos:
    frames = res[who][0]["frames"]
    summary[who] = {"wall_seconds": med(who, "wall"), "cpu_seconds": med(who, "cpu"),
                    "frames": frames, "frames_per_second": frames / med(who, "wall"),
                    "rtf": med(who, "wall") * 100.0 / frames, "peak_rss_mb": med(who, "rss_mb")}
# Each of ours over Kaldi's same program at the same thread count.
ratio = {}
for who in whos:
    k = "kaldi-" + who
    if k in summary:
        ratio[who] = summary[who]["frames_per_second"] / summary[k]["frames_per_second"]
for who in whos:
    row = summary[who]
    print("%-18s %8.2f %8.2f %10.1f %9.4f %8.1f %10s" % (
        who, row["wall_seconds"], row["cpu_seconds"], row["frames_per_second"], row["rtf"],
        row["peak_rss_mb"], "%.2fx" % ratio[who] if who in ratio else ""))
for who in whos:
    if "shares" in res[who][-1]:
        print("%s (last run): %s" % (who, res[who][-1]["shares"]))
target = {}
if "kaldi-parallel2" in summary:
    k = summary["kaldi-parallel2"]["frames_per_second"]
    target = {w: summary[w]["frames_per_second"] / k for w in whos if w.startswith("batch")}
    for w, x in target.items():
        print("throughput %s / kaldi-parallel2: %.2fx (median of %d runs)" % (w, x, runs))
gpu = [w for w in whos if w.startswith("gpu-batch")]
scaling = {}
if gpu and "gpu-batch1" in summary:
    one = summary["gpu-batch1"]["frames_per_second"]
    scaling = {w: summary[w]["frames_per_second"] / one for w in gpu}
    print("GPU scaling over one search thread: " +
          ", ".join("%s %.2fx" % (w[9:], x) for w, x in scaling.items()))
load = (read("load.before").strip(), read("load.after").strip(), read("nproc").strip())
print("load average before %s, after %s, on %s cores; core FP32 peak %.1f GFLOP/s (AVX2 FMA), "
      "%.1f (AVX-512; 0 = none); same words: %s" % (load + (peak_avx2, peak_avx512, same_words)))
print(json.dumps({"benchmark": "decode-batch", "model": model, "graph": graph, "runs": runs,
                  "results": summary, "ours_over_kaldi": ratio,
                  "speedup_over_kaldi_parallel2": target, "gpu_scaling": scaling,
                  "peak_gflops_avx2": peak_avx2, "peak_gflops_avx512": peak_avx512,
                  "load_before": float(load[0]), "load_after": float(load[1]),
                  "cores": int(load[2]), "same_words": same_words == "true"}))
PY
