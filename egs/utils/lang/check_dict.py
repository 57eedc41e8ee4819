#!/usr/bin/env python3
"""Checks a dictionary directory before prepare_lang.sh uses it.

Usage: check_dict.py DICT_DIR

DICT_DIR holds silence_phones.txt and nonsilence_phones.txt (phones, one
or more per line; a line is a group of phones that share a tree root),
optional_silence.txt (one silence phone), lexicon.txt ("word phone...")
and/or lexiconp.txt ("word prob phone..."), and optionally
extra_questions.txt. Prints the first problem (with file and line) and
exits 1, or exits 0.
"""
import os
import sys


def fail(message):
    sys.exit("check_dict.py: " + message)


def read_lines(path):
    with open(path, encoding="latin-1") as f:
        return [line.split() for line in f]


def phone_lines(path, what):
    if not os.path.isfile(path):
        fail("{} is missing".format(path))
    lines = read_lines(path)
    for number, fields in enumerate(lines, 1):
        if not fields:
            fail("{}:{}: empty line in the {} phones".format(path, number, what))
        for phone in fields:
            if phone.startswith("#") or phone == "<eps>":
                fail("{}:{}: '{}' cannot be a phone".format(path, number, phone))
    return [p for fields in lines for p in fields]


def check_lexicon(path, phones, with_probs):
    lines = read_lines(path)
    if not lines:
        fail(path + " is empty")
    for number, fields in enumerate(lines, 1):
        where = "{}:{}".format(path, number)
        first_phone = 2 if with_probs else 1
        if len(fields) < first_phone + 1:
            fail(where + ": expected a word" +
                 (", a probability" if with_probs else "") +
                 " and at least one phone")
        if fields[0] in ("<s>", "</s>", "<eps>") or fields[0].startswith("#"):
            fail("{}: '{}' cannot be a word".format(where, fields[0]))
        if with_probs:
            try:
                prob = float(fields[1])
            except ValueError:
                prob = -1.0
            if not 0.0 < prob <= 1.0:
                fail("{}: bad pronunciation probability '{}'".format(
                    where, fields[1]))
        for phone in fields[first_phone:]:
            if phone not in phones:
                fail("{}: phone '{}' is in neither silence_phones.txt nor "
                     "nonsilence_phones.txt".format(where, phone))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    sil = phone_lines(os.path.join(d, "silence_phones.txt"), "silence")
    nonsil = phone_lines(os.path.join(d, "nonsilence_phones.txt"),
                         "non-silence")
    phones = set(sil) | set(nonsil)
    if len(phones) != len(sil) + len(nonsil):
        fail("a phone is listed twice in silence_phones.txt and "
             "nonsilence_phones.txt")
    opt = os.path.join(d, "optional_silence.txt")
    if not os.path.isfile(opt):
        fail(opt + " is missing")
    fields = [p for line in read_lines(opt) for p in line]
    if len(fields) != 1 or fields[0] not in sil:
        fail(opt + " must hold one phone from silence_phones.txt")
    found = False
    for name, with_probs in (("lexicon.txt", False), ("lexiconp.txt", True)):
        path = os.path.join(d, name)
        if os.path.isfile(path):
            found = True
            check_lexicon(path, phones, with_probs)
    if not found:
        fail("neither lexicon.txt nor lexiconp.txt is in " + d)
    if os.path.isfile(os.path.join(d, "lexiconp_silprob.txt")):
        fail("lexiconp_silprob.txt (silence probabilities) is not supported")
    extra = os.path.join(d, "extra_questions.txt")
    if os.path.isfile(extra):
        for number, fields in enumerate(read_lines(extra), 1):
            for phone in fields:
                if phone not in phones:
                    fail("{}:{}: unknown phone '{}'".format(extra, number, phone))


if __name__ == "__main__":
    main()
