#!/usr/bin/env bash
# Renders nnet3-compile-info's HTML page for the Fashion-MNIST recipe's
# TDNN with a headless Chromium and checks that the screenshot is not
# blank: the model from egs/fashion_mnist/configs/tdnn.config (nnet3-init),
# egs cut as the recipe cuts them (28x28 images of random pixels, one label
# each, --num-frames=28 --frame-subsampling-factor=28, no extra context),
# merged into minibatches of 128 and 32 (two distinct requests), then
#   nnet3-compile-info --format=html 0.raw ark:merged.ark > c.html
# and a screenshot c.png of its top (1280x1800 pixels).
#
# Usage: scripts/snapshot-compile-info.sh [<bin-dir> [<out-dir>]]
#   <bin-dir> defaults to build/bin, <out-dir> to a new temporary folder
#   (its path is printed). Needs Chromium (Debian's `chromium`, which
#   scripts/setup.sh installs).
# Exit status: 0 if the page rendered and the screenshot is not blank, 1 if
# anything failed, 77 if Chromium is not installed.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "${1:-$ROOT/build/bin}" && pwd) || exit 1
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 1
export PATH="$BIN:$PATH"
log() { echo "snapshot-compile-info: $*" >&2; }

command -v chromium > /dev/null ||
  { log "chromium is not installed (apt-get install chromium; scripts/setup.sh does)"; exit 77; }

cd "$OUT" || exit 1
# 160 images of 28 rows x 28 pixels, and their labels.
python3 - <<'PY' || exit 1
import random
random.seed(1)
with open("feats.txt", "w") as f, open("post.txt", "w") as p:
    for i in range(160):
        f.write("img%03d  [\n" % i)
        for r in range(28):
            f.write(" ".join("%.3f" % random.gauss(0, 1) for _ in range(28)))
            f.write(" ]\n" if r == 27 else "\n")
        p.write("img%03d [ %d 1 ]\n" % (i, i % 10))
PY
run() { log "$*"; bash -c "$*" || { log "failed: $*"; exit 1; }; }
run "nnet3-init '$ROOT/egs/fashion_mnist/configs/tdnn.config' 0.raw 2> init.log"
run "copy-feats ark,t:feats.txt ark:feats.ark 2> copy.log"
run "nnet3-get-egs --num-pdfs=10 --num-frames=28 --frame-subsampling-factor=28 --left-context=0 --right-context=0 ark:feats.ark ark,t:post.txt ark:egs.ark 2> egs.log"
run "nnet3-merge-egs --minibatch-size=128,32 ark:egs.ark ark:merged.ark 2> merge.log"
run "nnet3-compile-info --format=html 0.raw ark:merged.ark > c.html 2> compile-info.log"

profile=$(mktemp -d)
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
        --disable-background-networking --disable-component-update --disable-sync
        --user-data-dir="$profile" --hide-scrollbars --force-device-scale-factor=1)
log "screenshot"
timeout 120 "${chrome[@]}" --window-size=1280,1800 --screenshot="$OUT/c.png" \
  "file://$OUT/c.html" > chromium.log 2>&1
status=$?
timeout 120 "${chrome[@]}" --dump-dom "file://$OUT/c.html" > dom.html 2>> chromium.log
rm -rf "$profile"
[ $status -eq 0 ] && [ -s c.png ] || { log "chromium failed (status $status): $(tail -3 chromium.log)"; exit 1; }
grep -q '<h1>nnet3-compile-info' dom.html || { log "chromium did not render the page (see $OUT/dom.html)"; exit 1; }

# Not blank: decode the PNG's top rows (zlib + PNG row filters) and count
# the pixels that differ from the background, and the distinct colours.
python3 - c.png <<'PY' || exit 1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "unexpected PNG type %d/%d" % (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += n + 12
raw = zlib.decompressobj().decompress(idat, (1 + width * bpp) * 900)
stride = width * bpp
prev = bytearray(stride)
rows = []
for r in range(min(900, len(raw) // (stride + 1))):
    f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
pixels = [row[i:i + 3] for row in rows for i in range(0, stride, bpp)]
background = max(set(pixels[:5000]), key=pixels[:5000].count)
other = sum(1 for p in pixels if p != background)
colours = len(set(pixels))
share = other / len(pixels)
print("snapshot-compile-info: %dx%d pixels checked, %.1f%% not background, %d colours"
      % (width, len(rows), 100 * share, colours), file=sys.stderr)
if share < 0.02 or colours < 16:
    sys.exit("snapshot-compile-info: the screenshot is blank")
PY
log "ok: $OUT/c.html, $OUT/c.png"
exit 0
