#!/usr/bin/env bash
# nnet3-compile-info with egs, and its pictures. Egs from nnet3-get-egs |
# nnet3-merge-egs (chunks of 8 and 4 frames, minibatches of 2 and 1; plain
# and i-vector): one section per distinct request, as nnet3-train builds it
# (as many requests as nnet3-train caches, and the same ones: --read-cache
# of nnet3-train's cache compiles nothing new), or as nnet3-compute-prob
# does; --max-requests; text and JSON. --format=html and --format=svg:
# parsed by python3's XML parser (xml.etree) and HTML parser (html.parser),
# no scripts and nothing fetched, every #link resolving, the memory curve's
# highest point, its peak marker and data-peak-bytes equal to
# peak_memory_bytes of --show=stats, one step box per step. Bad input: one
# ERROR line, exit 1.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

need python3 "python3 -c 'import xml.etree.ElementTree, html.parser, json'"
need graphviz 'command -v dot'

# Features (40 dims), i-vectors (100 dims, one per frame) and labels of 3
# utterances of 20 frames.
python3 - <<'PY'
import random
random.seed(3)
with open('feats.txt', 'w') as f, open('iv.txt', 'w') as iv, open('post.txt', 'w') as p:
    for u in range(3):
        f.write('utt%d  [\n' % u)
        iv.write('utt%d  [\n' % u)
        for t in range(20):
            end = ' ]\n' if t == 19 else '\n'
            f.write(' '.join('%.2f' % random.gauss(0, 1) for _ in range(40)) + end)
            iv.write(' '.join('%.2f' % random.gauss(0, 1) for _ in range(100)) + end)
        p.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % ((u + t) % 100) for t in range(20))))
PY
expect_ok init "nnet3-init '$CONFIGS/tdnn.config' tdnn.raw && nnet3-init '$CONFIGS/ivector.config' ivector.raw"
expect_ok data "copy-feats ark,t:feats.txt ark:feats.ark && copy-feats ark,t:iv.txt ark:iv.ark"
# Chunks: 8, 8 and a final 4 per utterance; minibatches of 2 (and 1 left).
EGS_OPTS="--num-pdfs=100 --num-frames=8,4 --compress=false"
expect_ok egs "nnet3-get-egs $EGS_OPTS --left-context=6 --right-context=6 ark:feats.ark ark,t:post.txt ark:- | nnet3-merge-egs --minibatch-size=1:2 ark:- ark:merged.ark"
expect_ok iv-egs "nnet3-get-egs $EGS_OPTS --left-context=3 --right-context=3 --online-ivectors=ark:iv.ark ark:feats.ark ark,t:post.txt ark:- | nnet3-merge-egs --minibatch-size=1:2 ark:- ark:iv-merged.ark"

# Text: three distinct requests, as nnet3-train builds them.
expect_ok text "nnet3-compile-info --show=request,stats tdnn.raw ark:merged.ark > egs.txt 2> egs.log"
[ "$(grep -c '^# ==== Request [1-3] of 3 (as nnet3-train compiles it): ' egs.txt)" = 3 ] || fail "text: $(grep '^# ====' egs.txt)"
grep -q '^# ==== Request 1 of 3 .*: 3 minibatches of 2 sequences, the first ' egs.txt || fail "text: $(grep '^# ==== Request 1' egs.txt)"
grep -q 'minibatch of 1 sequence, the first ' egs.txt || fail "text: no 1-sequence request"
[ "$(grep -c '^need-model-derivative: true' egs.txt)" = 3 ] || fail "text: the trainer's requests need the model derivative"
[ "$(grep -c '^store-component-stats: true' egs.txt)" = 3 ] || fail "text: nnet3-train stores component stats by default"
grep -q 'name=input, has-deriv=false, indexes=\[ (0, -6:13) (1, -6:13) \]' egs.txt || fail "text: chunk-8 input rows: $(grep -m1 'name=input' egs.txt)"
grep -q 'Read 5 minibatches with 3 distinct computation requests' egs.log || fail "text: $(grep Read egs.log)"
expect_ok no-stats "nnet3-compile-info --store-component-stats=false --show=request tdnn.raw ark:merged.ark > ns.txt"
[ "$(grep -c '^store-component-stats: false' ns.txt)" = 3 ] || fail "no-stats: --store-component-stats=false not applied"
expect_ok max-requests "nnet3-compile-info --max-requests=2 --show=stats tdnn.raw ark:merged.ark > mr.txt 2> mr.log"
[ "$(grep -c '^# ==== Request' mr.txt)" = 2 ] || fail "max-requests: $(grep -c '^# ==== Request' mr.txt) sections"
grep -q '1 distinct requests are not shown (--max-requests=2)' mr.log || fail "max-requests: no warning"
expect_ok compute-prob "nnet3-compile-info --for-compute-prob --show=request tdnn.raw ark:merged.ark > cp.txt"
[ "$(grep -c '(as nnet3-compute-prob compiles it)' cp.txt)" = 3 ] || fail "compute-prob: headings"
grep -q 'has-deriv=true' cp.txt && fail "compute-prob: a derivative was asked for"
expect_ok iv-text "nnet3-compile-info --show=request ivector.raw ark:iv-merged.ark > iv.txt"
grep -q 'name=ivector, has-deriv=false, indexes=\[ (0, 0) (1, 0) \]' iv.txt || fail "iv-text: $(grep -m1 'name=ivector' iv.txt)"
[ "$(grep -c '^# ==== Request' iv.txt)" = 3 ] || fail "iv-text: $(grep -c '^# ==== Request' iv.txt) sections"

# The trainer caches exactly these requests (without the shortcut, whose
# two-sequence requests would be cached too), and compiles none of them
# again when it reads its cache.
for m in tdnn:merged ivector:iv-merged; do
  raw=${m%%:*}.raw egs=${m#*:}.ark
  expect_ok "train-cache-$raw" "nnet3-train --compiler.use-shortcut=false --write-cache=$raw.cache --binary-write-cache=false $raw ark:$egs out.raw 2> /dev/null"
  n=$(grep -o '<ComputationRequest>' $raw.cache | wc -l)
  shown=$(nnet3-compile-info --compiler.use-shortcut=false --show=stats $raw ark:$egs 2> /dev/null | grep -c '^# ==== Request')
  [ "$n" = 3 ] && [ "$shown" = 3 ] || fail "train-cache-$raw: the trainer cached $n requests, compile-info shows $shown"
  expect_ok "train-read-cache-$raw" "nnet3-train --compiler.use-shortcut=false --read-cache=$raw.cache $raw ark:$egs out.raw 2> train.log"
  grep -q 'cache: [0-9]* hits, 0 misses' train.log || fail "train-read-cache-$raw: $(grep 'cache:' train.log)"
done

# JSON: {"requests": [...]}, one object per request, with its heading.
expect_ok json "nnet3-compile-info --show=request,stats,memory --format=json tdnn.raw ark:merged.ark > egs.json"
expect_ok json-valid "python3 -c 'import json; d=json.load(open(\"egs.json\")); r=d[\"requests\"]; assert len(r) == 3; assert all(x[\"heading\"].startswith(\"Request \") for x in r); assert all(x[\"request\"][\"outputs\"][0][\"has_deriv\"] for x in r); assert all(x[\"memory\"][\"peak_bytes\"] == x[\"peak_memory_bytes\"] == max(x[\"memory\"][\"bytes_after_command\"]) for x in r)'"

# The pictures' checker: well-formed (XML and HTML parsers), self-contained,
# links resolve, memory peaks as expected; prints what it checked.
cat > check_view.py <<'PY'
import html.parser, json, re, sys
import xml.etree.ElementTree as ET
path, kind = sys.argv[1], sys.argv[2]
text = open(path).read()
S = '{http://www.w3.org/2000/svg}'
root = ET.fromstring(text)          # a real XML parser: raises if malformed
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.ids = set(); self.hrefs = []; self.stack = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'id' in a: self.ids.add(a['id'])
        if 'href' in a: self.hrefs.append(a['href'])
        assert tag != 'script', 'a script'
        if tag not in ('meta', 'br'): self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ('meta', 'br'): self.stack.pop()
    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, 'unbalanced </%s>' % tag
        self.stack.pop()
p = P(); p.feed(text); p.close()
assert not p.stack, 'unclosed: %s' % p.stack
for h in p.hrefs:
    assert h.startswith('#'), 'a link out of the page: ' + h
    assert h[1:] in p.ids, 'a link to nothing: ' + h
assert not re.search(r'(src|href)="(https?:)?//', text), 'fetches something'
peaks = []
for g in root.iter():
    if g.tag != S + 'polyline' or not g.get('class', '').startswith('mc-curve-'): continue
    values = [int(v) for v in g.get('data-bytes').split()]
    peak = int(g.get('data-peak-bytes'))
    assert max(values) == peak, (max(values), peak)
    assert values.index(peak) == int(g.get('data-peak-command'))
    pts = [tuple(map(float, xy.split(','))) for xy in g.get('points').split()]
    top = min(y for x, y in pts)
    n = g.get('class')[-1]
    markers = [c for c in root.iter(S + 'circle') if c.get('class') == 'mc-peak-' + n
               and int(c.get('data-peak-bytes')) == peak]
    assert markers, 'no peak marker for curve ' + n
    assert any(abs(float(c.get('cy')) - top) < 0.06 for c in markers), 'the marker is not on the highest point'
    peaks.append((n, peak))
print(json.dumps({'curves': len(peaks),
                  'optimized': [v for n, v in peaks if n == '0'],
                  'unoptimized': [v for n, v in peaks if n == '1'],
                  'step_boxes': sum(1 for r in root.iter(S + 'rect') if 'sg-box' in r.get('class', '')),
                  'charts': sum(1 for g in root.iter(S + 'g') if g.get('class') == 'mc-chart'),
                  'sections': sum(1 for s in root.iter() if s.tag.endswith('section'))}))
PY
# peaks FILE: peak_memory_bytes of each request in a --show=stats JSON.
peaks() { python3 -c "import json,sys; d=json.load(open('$1')); r=d.get('requests', [d]); print(' '.join(str(x['peak_memory_bytes']) for x in r))"; }

expect_ok html "nnet3-compile-info --format=html --steps-layout=plain tdnn.raw ark:merged.ark > c.html"
expect_ok html-check "python3 check_view.py c.html html > c.check"
expect_ok stats-json "nnet3-compile-info --format=json --show=stats tdnn.raw ark:merged.ark > s.json && nnet3-compile-info --format=json --show=stats --optimize=false tdnn.raw ark:merged.ark > s0.json"
# Each section's chart: the optimized curve, then the unoptimized one.
expect_ok html-peaks "python3 -c 'import json; c=json.load(open(\"c.check\")); a=\"$(peaks s.json)\".split(); b=\"$(peaks s0.json)\".split(); assert c[\"sections\"] == 3 and c[\"curves\"] == 6, c; assert [str(x) for x in c[\"optimized\"]] == a and [str(x) for x in c[\"unoptimized\"]] == b, (c, a, b)'"
grep -q 'Where the memory goes' c.html || fail "html: no live-at-peak section"
expect_ok html-before-after "nnet3-compile-info --format=html --show=before-after --steps-layout=plain --num-sequences=16 --frames=4 --need-model-derivative tdnn.raw > ba.html && python3 check_view.py ba.html html > ba.check"
[ "$(grep -c 'class="side"' ba.html)" = 2 ] || fail "html-before-after: no side-by-side listings"
grep -q 'id="r1-b-c0"' ba.html || fail "html-before-after: no unoptimized listing"
expect_ok iv-html "nnet3-compile-info --format=html --for-compute-prob ivector.raw ark:iv-merged.ark > iv.html && python3 check_view.py iv.html html > /dev/null"

expect_ok svg-memory "nnet3-compile-info --format=svg --show=memory tdnn.raw ark:merged.ark > m.svg && python3 check_view.py m.svg svg > m.check"
head -1 m.svg | grep -q '^<?xml ' || fail "svg-memory: no XML prolog"
expect_ok svg-memory-peaks "python3 -c 'import json; c=json.load(open(\"m.check\")); a=\"$(peaks s.json)\".split(); assert c[\"charts\"] == 3, c; assert [str(x) for x in c[\"optimized\"]] == a, (c, a)'"
expect_ok svg-steps "nnet3-compile-info --format=svg --show=steps --steps-layout=plain --max-requests=1 tdnn.raw ark:merged.ark > st.svg && python3 check_view.py st.svg svg > st.check"
steps=$(python3 -c "import json; print(json.load(open('s.json'))['requests'][0]['steps'])")
grep -q "\"step_boxes\": $steps," st.check || fail "svg-steps: $(cat st.check), expected $steps boxes"
expect_ok svg-steps-dot "nnet3-compile-info --format=svg --show=steps --steps-layout=dot tdnn.raw > dot.svg && python3 check_view.py dot.svg svg > /dev/null"
# Without Graphviz on PATH: --steps-layout=dot is an error, the default layout
# falls back to the plain one.
mkdir nodot && ln -s "$(command -v python3)" nodot/python3
expect_error svg-steps-nodot "Graphviz 'dot' is not installed" "PATH=$TMP/nodot $BIN/nnet3-compile-info --format=svg --show=steps --steps-layout=dot tdnn.raw"
expect_ok svg-steps-auto "PATH=$TMP/nodot $BIN/nnet3-compile-info --format=svg --show=steps tdnn.raw > auto.svg && python3 check_view.py auto.svg svg > /dev/null"

# Bad input.
expect_error egs-frames "--frames describes a request without egs" "nnet3-compile-info --frames=3 tdnn.raw ark:merged.ark"
expect_error egs-deriv "--need-model-derivative describes a request without egs" "nnet3-compile-info --need-model-derivative tdnn.raw ark:merged.ark"
expect_error egs-max "--max-requests must be at least 1" "nnet3-compile-info --max-requests=0 tdnn.raw ark:merged.ark"
expect_error egs-stats-compute-prob "--store-component-stats=true cannot be used with --for-compute-prob" "nnet3-compile-info --for-compute-prob --store-component-stats tdnn.raw ark:merged.ark"
expect_error egs-wrong-net "Example 'merged-0-2': .*named 'ivector'" "nnet3-compile-info tdnn.raw ark:iv-merged.ark"
expect_error egs-no-ivector "The request of example 'merged-0-2' \(as nnet3-train builds it\): Cannot compute output 'output'.*'ivector'" "nnet3-compile-info ivector.raw ark:merged.ark"
expect_ok small-egs "python3 -c \"print('u0  [ ' + ' '.join(['1'] * 13) + ' ]')\" > small.txt && echo 'u0 [ 1 1 ]' > small.post && copy-feats ark,t:small.txt ark:small.ark && nnet3-get-egs --num-pdfs=100 --left-context=6 --right-context=6 ark:small.ark ark,t:small.post ark:small-egs.ark"
expect_error egs-wrong-dim "Example 'u0-0': The example's input 'input' has dimension 13 but the network's input node 'input' has dimension 40" "nnet3-compile-info tdnn.raw ark:small-egs.ark"
expect_error egs-missing "no-such\.ark" "nnet3-compile-info tdnn.raw ark:no-such.ark"
: > empty.ark
expect_error egs-empty "No examples were read" "nnet3-compile-info tdnn.raw ark:empty.ark"
expect_error svg-steps-many "draws one request.*--max-requests=1" "nnet3-compile-info --format=svg --show=steps tdnn.raw ark:merged.ark"

finish
