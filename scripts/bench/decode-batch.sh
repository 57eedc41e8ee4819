# MODE=batch of scripts/bench/decode.sh (sourced by it, after the inputs,
# $OPTS and $TMP are set): our nnet3-latgen-faster-batch at 1 and 2 search
# threads (and $THREADS) against Kaldi's nnet3-latgen-faster-parallel
# --num-threads=2, on all cores; see decode.sh's header.
BATCH=$BUILD/bin/nnet3-latgen-faster-batch
KALDI_PARALLEL=${KALDI_PARALLEL:-$(dirname "$KALDI")/nnet3-latgen-faster-parallel}
THREADS=${THREADS:-1 2}
[ -x "$BATCH" ] || { echo "decode.sh: $BATCH not found; build it first" >&2; exit 1; }
[ -x "$KALDI_PARALLEL" ] || { echo "decode.sh: $KALDI_PARALLEL not found (set KALDI_PARALLEL)" >&2; exit 1; }
# Every network on one thread: the model thread's and Kaldi's per-thread
# products alike, so that the cores go to the threads each program asks for.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
cut -d' ' -f1 /proc/loadavg > "$TMP/load.before"
whos=""
for t in $THREADS; do whos="$whos batch$t"; done
whos="$whos kaldi-parallel2"
for run in $(seq 1 "$RUNS"); do
  for who in $whos; do
    case $who in
      batch*) cmd="$BATCH --use-gpu=no --num-threads=${who#batch}" ;;
      *) cmd="$KALDI_PARALLEL --num-threads=2" ;;
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
  cmp -s "$TMP/$who.words" "$TMP/kaldi-parallel2.words" || same_words=false
done
getconf _NPROCESSORS_ONLN > "$TMP/nproc"

# shellcheck disable=SC2086
python3 - "$TMP" "$RUNS" "$same_words" "$MODEL" "$GRAPH" $whos <<'PY'
import json, re, statistics, sys

tmp, runs, same_words, model, graph = sys.argv[1:6]
runs, whos = int(runs), sys.argv[6:]
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
print("%-16s %9s %9s %10s %9s" % ("", "wall s", "CPU s", "frames/s", "RSS MB"))
summary = {}
for who in whos:
    frames = res[who][0]["frames"]
    row = {"wall_seconds": med(who, "wall"), "cpu_seconds": med(who, "cpu"),
           "frames": frames, "frames_per_second": frames / med(who, "wall"),
           "rtf": med(who, "wall") * 100.0 / frames, "peak_rss_mb": med(who, "rss_mb")}
    summary[who] = row
    print("%-16s %9.2f %9.2f %10.1f %9.1f" % (who, row["wall_seconds"], row["cpu_seconds"],
                                             row["frames_per_second"], row["peak_rss_mb"]))
for who in whos:
    if "shares" in res[who][-1]:
        print("%s (last run): %s" % (who, res[who][-1]["shares"]))
k = summary["kaldi-parallel2"]["frames_per_second"]
speedups = {w: summary[w]["frames_per_second"] / k for w in whos if w.startswith("batch")}
load = (read("load.before").strip(), read("load.after").strip(), read("nproc").strip())
for w, x in speedups.items():
    print("throughput %s / kaldi-parallel2: %.2fx (median of %d runs)" % (w, x, runs))
print("load average before %s, after %s, on %s cores; same words: %s" % (load + (same_words,)))
print(json.dumps({"benchmark": "decode-batch", "model": model, "graph": graph, "runs": runs,
                  "results": summary, "speedup_over_kaldi_parallel2": speedups,
                  "load_before": float(load[0]), "load_after": float(load[1]),
                  "cores": int(load[2]), "same_words": same_words == "true"}))
PY
