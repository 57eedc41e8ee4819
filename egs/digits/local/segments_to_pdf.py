#!/usr/bin/env python3
"""Phone segments -> per-frame pdf ids (Kaldi's ali-to-pdf text form).

Usage: local/segments_to_pdf.py <phones.txt> <pdf-map> <segments.txt> <ali-out>

<segments.txt> lines are "<utt> <phone> <frames> <phone> <frames> ..."
(local/make_data.py); <pdf-map> lines "<phone-id> <pdf-class> <pdf>"
(local/make_tree.py). Each phone's frames are split among its HMM's
pdf-classes in order, as evenly as integer frames allow (class k of S gets
frames [n*k/S, n*(k+1)/S)), so a phone needs at least S frames. Writes
"<utt> <pdf> <pdf> ..." with one pdf per frame; ali-to-post turns it into
the posteriors nnet3-get-egs reads.
"""
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    phones_txt, pdf_map, segments, out = sys.argv[1:]
    phone_id = dict(line.split() for line in open(phones_txt))
    pdfs = {}
    for line in open(pdf_map):
        p, c, pdf = line.split()
        pdfs.setdefault(p, []).append(pdf)
    with open(out, "w") as f:
        for n, line in enumerate(open(segments), 1):
            fields = line.split()
            frames = []
            for phone, count in zip(fields[1::2], fields[2::2]):
                if phone not in phone_id:
                    sys.exit("segments_to_pdf.py: %s line %d: phone %s is not in %s"
                             % (segments, n, phone, phones_txt))
                classes, count = pdfs[phone_id[phone]], int(count)
                if count < len(classes):
                    sys.exit("segments_to_pdf.py: %s line %d: %s has %d frames, fewer "
                             "than its %d HMM states" % (segments, n, phone, count, len(classes)))
                for k, pdf in enumerate(classes):
                    frames += [pdf] * (count * (k + 1) // len(classes) - count * k // len(classes))
            f.write(fields[0] + " " + " ".join(frames) + "\n")


if __name__ == "__main__":
    main()
