#!/usr/bin/env bash
# compute-mfcc-feats, compute-fbank-feats, compute-spectrogram-feats on WAVE
# files made here (python3): frame counts and dimensions, file and pipe
# entries alike, seeded dither, --channel, --subtract-mean, --write-utt2dur,
# --vtln-map/--utt2spk; bad input as Kaldi treats it: a non-WAVE entry (an
# error naming the key; skipped with scp,p:), a truncated file (a warning
# naming it, its samples used), a wrong sample rate (a warning naming the
# utterance, which is skipped, or resampled with --allow-downsample or
# --allow-upsample), a pipe that fails, no output left by an error, and all
# of these in one wav.scp read with scp,p:.
BIN=$1 DATA=$2; . "$(dirname "$0")/lib.sh"
need python3 'python3 -c "import struct, math"'

# mkwav.py OUT RATE CHANNELS SECONDS FREQ...: 16-bit PCM sines (one
# frequency per channel), amplitude 3000.
cat > mkwav.py <<'PY'
import math, struct, sys
out, rate, chans, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
freqs = [float(f) for f in sys.argv[5:5 + chans]]
n = int(rate * secs)
data = b''.join(struct.pack('<h', int(3000 * math.sin(2 * math.pi * freqs[c] * i / rate)))
                for i in range(n) for c in range(chans))
hdr = b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + struct.pack(
    '<IHHIIHH', 16, 1, chans, rate, rate * 2 * chans, 2 * chans, 16) + b'data' + struct.pack('<I', len(data))
open(out, 'wb').write(hdr + data)
PY
python3 mkwav.py a.wav 16000 1 1.0 440
python3 mkwav.py b.wav 16000 1 1.00625 440     # 16100 samples
python3 mkwav.py right.wav 16000 1 1.0 1000
python3 mkwav.py stereo.wav 16000 2 1.0 440 1000
python3 mkwav.py low.wav 8000 1 1.0 440
head -c 3000 a.wav > trunc.wav        # 1478 of 16000 samples
echo "this is not a wave file" > text.wav

rows() { feat-to-len "ark:$1" ark,t:- 2> /dev/null | awk '{print $2}'; }
dim() { feat-to-dim "ark:$1" - 2> /dev/null; }

# Frame counts: 25 ms every 10 ms of 1 s is 98 frames; of 16100 samples
# 1 + (16100 - 400) / 160 = 99, or (16100 + 80) / 160 = 101 centred.
echo "a $PWD/a.wav" > a.scp
echo "b $PWD/b.wav" > b.scp
expect_ok mfcc compute-mfcc-feats scp:a.scp ark:mfcc.ark
[ "$(rows mfcc.ark)" = 98 ] || fail "mfcc: $(rows mfcc.ark) frames, expected 98"
[ "$(dim mfcc.ark)" = 13 ] || fail "mfcc: dim $(dim mfcc.ark), expected 13"
expect_ok snip compute-mfcc-feats scp:b.scp ark:s.ark
[ "$(rows s.ark)" = 99 ] || fail "snip-edges: $(rows s.ark) frames, expected 99"
expect_ok no-snip compute-mfcc-feats --snip-edges=false scp:b.scp ark:ns.ark
[ "$(rows ns.ark)" = 101 ] || fail "--snip-edges=false: $(rows ns.ark) frames, expected 101"
expect_ok fbank compute-fbank-feats --num-mel-bins=40 --use-energy scp:a.scp ark:fb.ark
[ "$(dim fb.ark)" = 41 ] || fail "fbank: dim $(dim fb.ark), expected 41"
expect_ok spectrogram compute-spectrogram-feats scp:a.scp ark:sp.ark
[ "$(dim sp.ark)" = 257 ] || fail "spectrogram: dim $(dim sp.ark), expected 257"
grep -q ' Done 1 out of 1 utterances.' "$TMP/err" || fail "spectrogram: no Done line"

# The default dither is seeded: two runs give the same bytes; --dither=0
# gives other features.
expect_ok again compute-mfcc-feats scp:a.scp ark:mfcc2.ark
same_file "dither is reproducible" mfcc.ark mfcc2.ark
expect_ok nodither compute-mfcc-feats --dither=0 scp:a.scp ark:nd.ark
cmp -s mfcc.ark nd.ark && fail "--dither=0 changed nothing"

# A pipe entry reads as the file does; --channel=1 of a stereo file is its
# right channel.
echo "a cat $PWD/a.wav |" > pipe.scp
expect_ok pipe compute-mfcc-feats --dither=0 scp:pipe.scp ark:pipe.ark
same_file "pipe entry" nd.ark pipe.ark
echo "a $PWD/right.wav" > right.scp
echo "a $PWD/stereo.wav" > stereo.scp
expect_ok right compute-fbank-feats --dither=0 scp:right.scp ark:r1.ark
expect_ok channel compute-fbank-feats --dither=0 --channel=1 scp:stereo.scp ark:r2.ark
same_file "--channel=1" r1.ark r2.ark
expect_exit channel-missing 1 'File with id a has 2 channels but you specified channel 2' \
  compute-fbank-feats --channel=2 scp:stereo.scp ark:/dev/null

# --subtract-mean: every column sums to ~0; --write-utt2dur: 1 second.
expect_ok cms compute-mfcc-feats --subtract-mean --write-utt2dur=ark,t:dur scp:a.scp ark,t:cms.txt
python3 - cms.txt <<'PY' || fail "--subtract-mean: column means not 0"
import sys
rows = [[float(x) for x in l.replace(']', '').split()] for l in open(sys.argv[1]) if '[' not in l]
rows = [r for r in rows if r]
assert max(abs(sum(c) / len(rows)) for c in zip(*rows)) < 1e-3
PY
[ "$(cat dur)" = "a 1 " ] || fail "--write-utt2dur wrote '$(cat dur)', expected 'a 1 '"

# --min-duration: a (1 s) is skipped with Kaldi's warning, b (1.00625 s)
# is computed.
printf 'a %s\nb %s\n' "$PWD/a.wav" "$PWD/b.wav" > ab.scp
expect_exit min-duration 0 'File: a is too short \(1 sec\): producing no output.' \
  compute-mfcc-feats --min-duration=1.005 scp:ab.scp ark:md.ark
grep -q ' Done 1 out of 2 utterances' "$TMP/err" || fail "--min-duration: no 'Done 1 out of 2' line"
[ "$(feat-to-len ark:md.ark ark,t:- 2> /dev/null | cut -d' ' -f1)" = b ] ||
  fail "--min-duration: the archive does not hold b alone"

# --vtln-map through --utt2spk: warp 0.9 for the speaker moves the filters.
echo "a spk1" > utt2spk
echo "spk1 0.9" > vtln
expect_ok vtln compute-fbank-feats --dither=0 --vtln-map=ark:vtln --utt2spk=ark:utt2spk scp:right.scp ark:v.ark
cmp -s r1.ark v.ark && fail "--vtln-map with warp 0.9 changed nothing"
expect_ok vtln-warp compute-fbank-feats --dither=0 --vtln-warp=0.9 scp:right.scp ark:v2.ark
same_file "--vtln-warp=0.9 equals the map" v.ark v2.ark
expect_error utt2spk-alone 'only needed if the --vtln-map option is used' \
  compute-fbank-feats --utt2spk=ark:utt2spk scp:right.scp ark:/dev/null

# Bad input. A non-WAVE entry: one ERROR naming its key; with scp,p: a
# warning, and the other utterances go on.
printf 'a %s\nt %s\nx %s\nz %s\n' "$PWD/a.wav" "$PWD/text.wav" "$PWD/trunc.wav" "$PWD/a.wav" > bad.scp
expect_error not-wave "key 't'.*Not a WAVE file: expected RIFF or RIFX, got 'this'" \
  compute-mfcc-feats scp:bad.scp ark:/dev/null
expect_exit permissive 0 ' Done 3 out of 3 utterances' \
  compute-mfcc-feats scp,p:bad.scp ark:p.ark
grep -q "key 't'.*permissive: skipping this entry" "$TMP/err" || fail "permissive: no warning for t"
# The truncated file: a warning naming it, and the frames of its samples
# (1 + (1478 - 400) / 160 = 7).
grep -q 'Utterance x: expected 32000 bytes of wave data, but read only 2956 bytes. Truncated file?' "$TMP/err" ||
  fail "truncated: no warning naming utterance x"
[ "$(feat-to-len ark:p.ark ark,t:- 2> /dev/null | grep '^x ' | cut -d' ' -f2)" = 7 ] || fail "truncated: not 7 frames"
# A wrong sample rate: Kaldi's message, the utterance skipped, status 1 if
# nothing was done.
echo "low $PWD/low.wav" > low.scp
expect_exit sample-rate 1 'Failed to compute features for utterance low: Waveform and config sample Frequency mismatch: 8000 .vs 16000' \
  compute-mfcc-feats scp:low.scp ark:/dev/null
grep -q ' Done 0 out of 1 utterances' "$TMP/err" || fail "sample-rate: no Done 0 line"
expect_ok sample-rate-8k compute-mfcc-feats --sample-frequency=8000 scp:low.scp ark:/dev/null
# --allow-downsample / --allow-upsample resample to --sample-frequency: a
# 1 kHz sine made at 22050 Hz or at 8000 Hz gives the fbank of the same sine
# made at 16 kHz in the mel bins below 2 kHz (0-10 of 23; above, the three
# files' rounding noise differs), and as many frames.
python3 mkwav.py s16.wav 16000 1 1.0 1000
python3 mkwav.py s22.wav 22050 1 1.0 1000
python3 mkwav.py s8.wav 8000 1 1.0 1000
for r in 16 22 8; do echo "u $PWD/s$r.wav" > s$r.scp; done
expect_exit no-downsample 1 "utterance u: .*mismatch: 22050 .vs 16000 \\(use --allow-downsample=true" \
  compute-fbank-feats --dither=0 --allow-upsample scp:s22.scp ark:/dev/null
expect_ok native compute-fbank-feats --dither=0 scp:s16.scp ark,t:s16.txt
expect_ok downsample compute-fbank-feats --dither=0 --allow-downsample scp:s22.scp ark,t:s22.txt
expect_ok upsample compute-fbank-feats --dither=0 --allow-upsample scp:s8.scp ark,t:s8.txt
for r in 22 8; do
  python3 - s16.txt s$r.txt <<'PY' || fail "resampled from $r kHz: fbank differs from the 16 kHz file's"
import sys
rd = lambda p: [[float(x) for x in l.replace(']', '').split()] for l in open(p) if '[' not in l]
a, b = rd(sys.argv[1]), rd(sys.argv[2])
assert len(a) == len(b) == 98, (len(a), len(b))
worst = max(abs(x - y) for r, s in zip(a, b) for x, y in list(zip(r, s))[:11])
print('resampled %s: max |diff| in mel bins 0-10: %.4f' % (sys.argv[2], worst))
assert worst < 0.05
PY
done
# A pipe that fails.
printf 'a %s\np false |\n' "$PWD/a.wav" > failpipe.scp
expect_error failing-pipe "key 'p'.*'false' failed with exit status 1" \
  compute-mfcc-feats scp:failpipe.scp ark:/dev/null
# An error leaves no half-written output: neither the archive nor its scp.
expect_error no-partial-output "key 'p'" \
  compute-mfcc-feats scp:failpipe.scp ark,scp:part.ark,part.scp
{ [ -e part.ark ] || [ -e part.scp ]; } && fail "an error left part.ark or part.scp"
# One line besides the echoed command line: no warning about the discarded output.
[ "$(grep -vc '^compute-mfcc-feats ' "$TMP/err")" = 1 ] || fail "no-partial-output: not one line on stderr: $(cat "$TMP/err")"
# All of it at once with scp,p: (as steps/make_mfcc.sh reads wav.scp): one
# warning naming each bad entry, the good ones written, the status 0 as
# Kaldi's (some utterance succeeded); Kaldi's count leaves out the entries
# that could not be read (a, x, z done; low failed).
printf 'a %s\nt %s\nx %s\nlow %s\np false |\nz %s\n' "$PWD/a.wav" "$PWD/text.wav" \
  "$PWD/trunc.wav" "$PWD/low.wav" "$PWD/a.wav" > mixed.scp
sox_key=
if command -v sox > /dev/null; then
  echo "s sox $PWD/missing.wav -t wav - |" >> mixed.scp
  sox_key=s
fi
expect_exit mixed 0 ' Done 3 out of 4 utterances' compute-mfcc-feats scp,p:mixed.scp ark:mixed.ark
for key in t x low p $sox_key; do
  [ "$(grep -Ec "^WARNING.*(key '$key'|utterance $key:|Utterance $key:)" "$TMP/err")" = 1 ] ||
    fail "mixed: not one warning naming $key"
done
[ "$(feat-to-len ark:mixed.ark ark,t:- 2> /dev/null | cut -d' ' -f1 | tr '\n' ' ')" = "a x z " ] ||
  fail "mixed: the archive does not hold exactly a, x, z"
# add-deltas, splice-feats and wav-to-duration on what was computed here.
expect_ok deltas add-deltas ark:mfcc.ark ark:d.ark
[ "$(dim d.ark)" = 39 ] || fail "add-deltas: dim $(dim d.ark), expected 39"
expect_ok splice splice-feats --left-context=3 --right-context=2 ark:mfcc.ark ark:sp6.ark
[ "$(dim sp6.ark)" = 78 ] || fail "splice-feats: dim $(dim sp6.ark), expected 78"
echo 'u [ 1 ; 2 ; 4 ]' > tiny.txt
expect_ok deltas-tiny add-deltas --delta-order=1 ark:tiny.txt ark,t:tiny-d.txt
[ "$(tr -s ' \n' ' ' < tiny-d.txt)" = "u [ 1 0.7 2 0.9 4 0.8 ] " ] ||
  fail "add-deltas of 1 2 4: $(tr -s ' \n' ' ' < tiny-d.txt)"
# select-feats and paste-feats, as Kaldi's on small matrices.
echo 'u [ 1 2 3 ; 4 5 6 ; 7 8 9 ]' > m3.txt
echo 'u [ 10 ; 20 ]' > m2.txt
expect_ok select select-feats 2-1,0 ark:m3.txt ark,t:sel.txt
[ "$(tr -s ' \n' ' ' < sel.txt)" = "u [ 3 2 1 6 5 4 9 8 7 ] " ] ||
  fail "select-feats 2-1,0: $(tr -s ' \n' ' ' < sel.txt)"
expect_ok paste paste-feats --length-tolerance=1 ark:m3.txt ark:m2.txt ark,t:paste.txt
[ "$(tr -s ' \n' ' ' < paste.txt)" = "u [ 1 2 3 10 4 5 6 20 ] " ] ||
  fail "paste-feats: $(tr -s ' \n' ' ' < paste.txt)"
expect_exit paste-tolerance 1 'Length mismatch 3 vs. 2 for utt u exceeds tolerance 0' \
  paste-feats ark:m3.txt ark:m2.txt ark:/dev/null
expect_ok duration wav-to-duration scp:a.scp ark,t:dur2
[ "$(cat dur2)" = "a 1 " ] || fail "wav-to-duration wrote '$(cat dur2)'"

# extract-segments: 0.25 s .. 0.75 s of a.wav is samples 4000 .. 12000
# (1 + (8000 - 400) / 160 = 48 frames), piped into compute-mfcc-feats; a
# segment past the end is skipped with a warning.
printf 'a-1 a 0.25 0.75\na-2 a 0.5 -1\na-3 a 2.0 3.0\n' > segments
expect_ok segments "extract-segments scp:a.scp segments ark:- | compute-mfcc-feats ark:- ark:seg.ark"
seglens=$(feat-to-len ark:seg.ark ark,t:- 2> /dev/null | awk '{printf "%s %s ", $1, $2}')
[ "$seglens" = "a-1 48 a-2 48 " ] || fail "extract-segments: lengths $seglens"
grep -q 'Segment start is out of file data range \[0, 1s\]; skipping segment a-3' "$TMP/err" ||
  fail "extract-segments: no warning for a-3"

# --output-format=htk: "a " then HTK's big-endian header: 98 frames,
# 100000 (10 ms), 52 bytes a frame, kind MFCC_E (0106 = 0x46).
expect_ok htk compute-mfcc-feats --output-format=htk scp:a.scp ark:htk.ark
[ "$(head -c 14 htk.ark | od -An -tx1 | tr -d ' \n')" = 612000000062000186a000340046 ] ||
  fail "htk header: $(head -c 14 htk.ark | od -An -tx1)"

# Kaldi's own outputs for $DATA/feat/mix.wav (0.1 s: a 440 Hz sine of
# amplitude 20000, one at 3 kHz of amplitude 5, noise of +-3; made with
# /opt/kaldi's programs, commands in $DATA/feat/README). The raw FFT must be
# bit for bit Kaldi's (our float FFT performs Kaldi's operations: at n = 512
# split-radix, n = 400 and 194 = 2 x 97 mixed-radix); FFTW's double FFT was
# 2.6e-2 / 0.33 / 5.4 off here. The features sum through OpenBLAS as
# Kaldi's do, which equals Kaldi's bits where both use the same OpenBLAS
# kernels; the bound, |ours - Kaldi| / max(|Kaldi|, 1) <= 1e-4, is the
# issue's, and allows another processor's kernels (FFTW: 3.1e-2 spectrogram,
# 1.3e-3 MFCC with 40 cepstra).
cat > vs-kaldi.py << 'PY'
import array, struct, sys
def read(path):
    out, b, i = {}, open(path, 'rb').read(), 0
    while i < len(b):
        j = b.index(b' ', i); key = b[i:j].decode(); i = j + 1
        assert b[i:i + 5] == b'\0BFM ', 'not a binary float matrix archive'
        rows, cols = struct.unpack('<i', b[i + 6:i + 10])[0], struct.unpack('<i', b[i + 11:i + 15])[0]
        a = array.array('f'); a.frombytes(b[i + 15:i + 15 + 4 * rows * cols])
        out[key] = (rows, cols, a); i += 15 + 4 * rows * cols
    return out
ours, kaldi, bound = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
assert ours.keys() == kaldi.keys() and all(ours[k][:2] == kaldi[k][:2] for k in kaldi), 'shapes differ'
worst = max(abs(x - y) / max(abs(y), 1.0) for k in kaldi for x, y in zip(ours[k][2], kaldi[k][2]))
if worst > bound: sys.exit('max |ours - Kaldi| / max(|Kaldi|, 1) = %.3g > %g' % (worst, bound))
PY
echo "mix $DATA/feat/mix.wav" > mix.scp
while read -r golden bound program opts; do
  # shellcheck disable=SC2086
  expect_ok "$golden" "$program" --dither=0 $opts scp:mix.scp ark:mix.ark
  python3 vs-kaldi.py mix.ark "$DATA/feat/$golden.ark" "$bound" ||
    fail "$golden: $program $opts is not Kaldi's"
done << 'SETS'
kaldi-raw-fft-512 0 compute-spectrogram-feats --return-raw-fft=true
kaldi-raw-fft-400 0 compute-spectrogram-feats --return-raw-fft=true --round-to-power-of-two=false
kaldi-raw-fft-194 0 compute-spectrogram-feats --return-raw-fft=true --round-to-power-of-two=false --frame-length=12.125
kaldi-spectrogram 1e-4 compute-spectrogram-feats
kaldi-fbank 1e-4 compute-fbank-feats
kaldi-mfcc 1e-4 compute-mfcc-feats
kaldi-mfcc-40 1e-4 compute-mfcc-feats --num-ceps=40 --num-mel-bins=40 --use-energy=false --low-freq=20 --high-freq=-400
SETS

# Options: an unknown window type; usage.
expect_error window 'Invalid window type hann' \
  compute-mfcc-feats --window-type=hann scp:a.scp ark:/dev/null
expect_exit usage 1 'Usage:  compute-mfcc-feats' compute-mfcc-feats
finish
