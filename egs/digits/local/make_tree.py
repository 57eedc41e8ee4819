#!/usr/bin/env python3
"""A monophone tree for a lang directory, in Kaldi's text form.

Usage: local/make_tree.py <lang-dir> <tree-txt-out> <pdf-map-out>

The tree is Kaldi's ContextDependency with context width 1 and central
position 0 (what gmm-init-mono makes, here without a GMM): a table on the
phone (key 0), then for each phone a table on the HMM state's pdf-class
(key -1) giving the pdf. The phones of one line of phones/roots.int (a
phone's position-dependent variants, e.g. z_B z_E z_I z_S) share their pdfs,
so there are sum over the lines of the line's number of pdf-classes (from
topo). Read it with `copy-tree --binary=false`, check it with tree-info.

<pdf-map-out> has one line "<phone-id> <pdf-class> <pdf>" for each phone and
pdf-class; local/segments_to_pdf.py turns alignments into pdf ids with it.
"""
import os
import re
import sys


def ReadTopo(path):
    """{phone id: number of pdf-classes} from a topo file."""
    text = open(path).read()
    classes = {}
    for entry in re.findall(r"<TopologyEntry>(.*?)</TopologyEntry>", text, re.S):
        phones = re.search(r"<ForPhones>(.*?)</ForPhones>", entry, re.S).group(1).split()
        num = len(set(re.findall(r"<PdfClass>\s*(\d+)", entry)))
        for p in phones:
            classes[int(p)] = num
    return classes


def ReadRoots(path):
    """The phone id lists of roots.int ("shared split 6 7 8 9")."""
    roots = []
    for line in open(path):
        fields = line.split()
        if len(fields) < 3 or fields[0] not in ("shared", "not-shared"):
            sys.exit("make_tree.py: bad line in %s: %s" % (path, line.strip()))
        roots.append([int(p) for p in fields[2:]])
    return roots


def PdfMap(roots, classes):
    """{(phone, pdf-class): pdf}, pdfs numbered in roots.int's order."""
    pdf_of, next_pdf = {}, 0
    for phones in roots:
        num = {classes[p] for p in phones}
        if len(num) != 1:
            sys.exit("make_tree.py: phones %s of one root have different topologies" % phones)
        num = num.pop()
        for c in range(num):
            for p in phones:
                pdf_of[(p, c)] = next_pdf + c
        next_pdf += num
    return pdf_of


def TreeText(pdf_of, classes):
    max_phone = max(classes)
    children = []
    for p in range(max_phone + 1):
        if p not in classes:
            children.append("NULL")
            continue
        pdfs = " ".join("CE %d" % pdf_of[(p, c)] for c in range(classes[p]))
        children.append("TE -1 %d ( %s )" % (classes[p], pdfs))
    return "ContextDependency 1 0 ToPdf TE 0 %d ( %s ) EndContextDependency\n" % (
        max_phone + 1, " ".join(children))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    lang, tree_out, map_out = sys.argv[1:]
    classes = ReadTopo(os.path.join(lang, "topo"))
    roots = ReadRoots(os.path.join(lang, "phones", "roots.int"))
    missing = set(classes) - {p for phones in roots for p in phones}
    if missing:
        sys.exit("make_tree.py: phones %s are in no line of roots.int" % sorted(missing))
    pdf_of = PdfMap(roots, classes)
    with open(tree_out, "w") as f:
        f.write(TreeText(pdf_of, classes))
    with open(map_out, "w") as f:
        for (p, c) in sorted(pdf_of):
            f.write("%d %d %d\n" % (p, c, pdf_of[(p, c)]))
    print("make_tree.py: %d phones, %d pdfs" % (len(classes), max(pdf_of.values()) + 1))


if __name__ == "__main__":
    main()
