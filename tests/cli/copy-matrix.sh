#!/usr/bin/env bash
# copy-matrix and copy-feats end to end: text/binary round trips through
# pipes, ark,scp offsets, compression, rxfilename mode, usage, and bad input.
BIN=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

cat > x.txt <<'TXT'
utt1  [
  1 2 3 
  4.5 -6 0.25 ]
utt2  [
  -1e-05 1234567 inf ]
utt3  [ ]
TXT

# The issue's own check: text through binary and back is unchanged.
expect_ok roundtrip "copy-matrix 'ark,t:-' ark:- < x.txt | copy-matrix ark:- ark,t:- > y.txt"
same_file roundtrip x.txt y.txt

# Binary archive → ark,scp with offsets → read back through the scp.
expect_ok to-bin "copy-matrix ark,t:x.txt ark:x.ark"
expect_ok ark-scp "copy-matrix ark:x.ark ark,scp:y.ark,y.scp"
same_file ark-scp-bytes x.ark y.ark
grep -q '^utt2 y.ark:[0-9][0-9]*$' y.scp || fail "scp line format: $(cat y.scp)"
expect_ok read-scp "copy-matrix scp:y.scp ark,t:- > z.txt"
same_file read-scp z.txt x.txt
expect_ok scp-range "echo 'utt1 y.ark:$(awk '$1=="utt1"{split($2,a,":"); print a[2]}' y.scp)[1:1,0:1]' > r.scp && copy-matrix scp:r.scp ark,t:- > r.txt"
grep -q '4.5 -6' r.txt || fail "range: $(cat r.txt)"

# Pipes on both sides.
expect_ok pipes "copy-matrix 'ark:cat x.ark |' 'ark:| cat > p.ark'"
same_file pipes x.ark p.ark

# Single-object mode (rxfilename/wxfilename), --binary.
expect_ok single "printf ' [\n  1 2 \n  3 4 ]\n' > m.txt && copy-matrix m.txt m.bin && copy-matrix --binary=false m.bin m2.txt"
same_file single m.txt m2.txt
expect_ok scale "copy-matrix --scale=2 --binary=false m.txt - > s.txt"
grep -q '6 8' s.txt || fail "scale: $(cat s.txt)"

# copy-feats with compression: CM for > 8 rows, readable by copy-matrix.
python3 - > feats.txt <<'PY'
for u in range(2):
    print(f"spk{u}-utt  [")
    rows = [" ".join(str((r * 7 + c * 3 + u) % 11 - 5) for c in range(4)) for r in range(12)]
    print("\n".join("  " + r + " " for r in rows[:-1]))
    print("  " + rows[-1] + " ]")
PY
expect_ok compress "copy-feats --compress=true ark,t:feats.txt ark,scp:c.ark,c.scp"
head -c 40 c.ark | grep -aq 'CM ' || fail "compressed archive has no CM token"
expect_ok decompress "copy-feats scp:c.scp ark,t:d.txt"
expect_ok num-frames "copy-feats --write-num-frames=ark,t:nf.txt ark:c.ark ark:/dev/null"
grep -q '^spk1-utt 12 *$' nf.txt || fail "num frames: $(cat nf.txt)"

# Usage.
expect_ok help "copy-matrix --help 2> h.txt; grep -q 'Usage:' h.txt"
copy-matrix a > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"
grep -q 'Usage:' u.txt || fail "wrong arg count must print usage"

# Bad input: one ERROR line naming the file / key, exit 1, no partial output.
expect_error missing-file "no-such\.ark" "copy-matrix ark:no-such.ark ark,t:-"
head -c 30 x.ark > trunc-header.ark
expect_error truncated-header "trunc-header\.ark" "copy-matrix ark:trunc-header.ark ark:out1.ark"
[ ! -e out1.ark ] || fail "truncated archive left a partial output file"
head -c $(( $(stat -c %s x.ark) - 9 )) x.ark > trunc-data.ark
expect_error truncated-data "trunc-data\.ark.*utt" "copy-matrix ark:trunc-data.ark ark:out2.ark"
[ ! -e out2.ark ] || fail "truncated data left a partial output file"
printf 'utt1 \0XFM ' > bad-header.ark
expect_error bad-header "bad-header\.ark.*utt1" "copy-matrix ark:bad-header.ark ark,t:-"
printf 'utt1 FM \x04' > no-header.ark
expect_error no-binary-header "no-header\.ark.*utt1" "copy-matrix ark:no-header.ark ark,t:-"
printf ' [ 1 2 ]\n' > notoken.txt
expect_error key-not-token "notoken\.txt" "copy-matrix ark,t:notoken.txt ark,t:-"
printf 'u1  [\n  1 2 \n  3 ]\n' > ragged.txt
expect_error ragged "ragged\.txt.*u1" "copy-matrix ark,t:ragged.txt ark,t:-"
expect_error no-command "no-such-command-xyz" "copy-matrix 'ark:no-such-command-xyz |' ark,t:-"
expect_error failing-pipe "Input pipe command 'false' failed with exit status 1" "copy-matrix 'ark:false |' ark,t:- "
echo "utt1 x.ark:999999" > past-end.scp
expect_error scp-past-end "utt1.*x\.ark" "copy-matrix scp:past-end.scp ark,t:-"
printf 'good x.ark:%s\nbad x.ark:999999\n' "$(awk '$1=="utt1"{split($2,a,":"); print a[2]}' y.scp)" > perm.scp
expect_ok permissive "copy-matrix scp,p:perm.scp ark,t:perm.txt"
grep -q '^good ' perm.txt || fail "permissive read lost the good entry"
grep -q '^bad ' perm.txt && fail "permissive read kept the bad entry"
expect_error bad-option "Invalid option --no-such" "copy-matrix --no-such=1 ark:x.ark ark,t:-"

finish
