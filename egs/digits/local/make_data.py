#!/usr/bin/env python3
"""Spoken digit strings synthesized with espeak-ng -> Kaldi data directories.

Usage: local/make_data.py [options] <data-dir>

Drives libespeak-ng through ctypes: each utterance is a random string of 1-7
digit words (zero, oh, one .. nine), spoken by one voice ("<language>+<variant>",
e.g. en-us+m3: the speaker) at a random rate and pitch, with an occasional
pause (a comma) between words. espeak reports each phoneme's start
(espeakEVENT_PHONEME), which gives the training alignment without any model.

Writes, under <data-dir>:
  local/wav/<set>/<utt>.wav   22050 Hz 16-bit mono, espeak's own rate, with
                              silence of 0.15-0.35 s added at each end
  local/dict/                 lexicon.txt (every pronunciation espeak gives a
                              digit word, alone and before a vowel, in each
                              language),
                              silence_phones.txt (SIL), optional_silence.txt,
                              nonsilence_phones.txt
  train, test, test_noisy     wav.scp ("<utt> sox -R <wav> -r 16000 -t wav - |":
                              -R: sox's dither repeatable),
                              text, utt2spk, spk2utt; test_noisy is test with
                              white noise at --snr dB (its own wav files);
                              --train-noise-prob of the training utterances
                              get white noise at --train-snr dB
  train/segments.txt          "<utt> <phone> <frames> ..." : the alignment as
                              position-dependent phones (z_B, i@_I, ..., SIL)
                              and their lengths in 10 ms frames, summing to the
                              number of frames compute-mfcc-feats gives (25 ms
                              windows, snip-edges), every phone at least
                              --min-phone-frames long (SIL at least 3)
Training utterances whose phonemes do not split into the lexicon's
pronunciations of their words, or with a phone shorter than the minimum, are
left out; the counts are printed. Everything follows from --seed.
"""
import argparse
import ctypes
import os
import random
import sys
import wave

import numpy as np

WORDS = ["zero", "oh", "one", "two", "three", "four", "five", "six", "seven",
         "eight", "nine"]
RATE = 22050
FRAME_SHIFT, FRAME_LENGTH = 0.010, 0.025
EVENT_PHONEME, EVENT_END_OF_LIST = 7, 0
# espeak's glide between vowels ("three eight": T r i: ; eI t), renamed.
RENAME = {";": "j"}
# Words that start with a vowel: before them espeak links (four -> f o@ r).
VOWEL_WORDS = ["eight", "oh"]


class Event(ctypes.Structure):
    """espeak_EVENT of speak_lib.h (the union read as its 8-byte string)."""
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint),
                ("text_position", ctypes.c_int), ("length", ctypes.c_int),
                ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", ctypes.c_char * 8)]


CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short),
                            ctypes.c_int, ctypes.POINTER(Event))


class Speaker:
    """libespeak-ng in synchronous mode: Say() returns samples and phonemes."""

    def __init__(self):
        self.lib = ctypes.CDLL("libespeak-ng.so.1")
        # AUDIO_OUTPUT_SYNCHRONOUS = 2, espeakINITIALIZE_PHONEME_EVENTS = 1
        if self.lib.espeak_Initialize(2, 0, None, 1) != RATE:
            sys.exit("make_data.py: libespeak-ng does not synthesize at %d Hz" % RATE)
        self.callback = CALLBACK(self._collect)
        self.lib.espeak_SetSynthCallback(self.callback)
        self.samples, self.phones = [], []

    def CheckVoice(self, voice):
        """Exits, naming the voice, unless espeak knows its language and
        has its variant (espeak itself would quietly use a default)."""
        lang, _, variant = voice.partition("+")
        data_dir = ctypes.c_char_p()
        self.lib.espeak_Info.restype = ctypes.c_char_p
        self.lib.espeak_Info(ctypes.byref(data_dir))
        variant_file = os.path.join(data_dir.value.decode(), "voices", "!v", variant)
        if self.lib.espeak_SetVoiceByName(lang.encode()) != 0 or not os.path.isfile(variant_file):
            sys.exit("make_data.py: espeak-ng has no voice '%s' (languages: espeak-ng "
                     "--voices=en; variants: espeak-ng --voices=variant)" % voice)

    def _collect(self, wav, num_samples, events):
        if wav and num_samples > 0:
            self.samples.append(np.ctypeslib.as_array(wav, (num_samples,)).copy())
        i = 0
        while events[i].type != EVENT_END_OF_LIST:
            if events[i].type == EVENT_PHONEME:
                name = events[i].id.split(b"\0")[0].decode()
                name = RENAME.get(name.strip("',%="), name.strip("',%="))
                self.phones.append((name, events[i].sample))
            i += 1
        return 0

    def Say(self, voice, text, rate, pitch):
        """(int16 samples, [(phoneme, start sample)]) of text in voice."""
        if self.lib.espeak_SetVoiceByName(voice.encode()) != 0:
            sys.exit("make_data.py: espeak-ng has no voice '%s'" % voice)
        self.lib.espeak_SetParameter(1, rate, 0)   # espeakRATE
        self.lib.espeak_SetParameter(3, pitch, 0)  # espeakPITCH
        self.samples, self.phones = [], []
        data = text.encode()
        # POS_CHARACTER = 1, espeakCHARS_UTF8 = 1
        self.lib.espeak_Synth(data, len(data) + 1, 0, 1, 0, 1, None, None)
        self.lib.espeak_Synchronize()
        audio = np.concatenate(self.samples) if self.samples else np.zeros(0, np.int16)
        return audio, self.phones


def IsPause(phone):
    return phone.startswith("_") or phone == ""


def MakeLexicon(speaker, languages):
    """{word: [pronunciation tuple, ...]}: each word said alone, and its
    form before a vowel (what precedes the vowel word's own phonemes)."""
    lexicon = {w: [] for w in WORDS}

    def Add(word, pron):
        if pron and pron not in lexicon[word]:
            lexicon[word].append(pron)

    def Phones(lang, text):
        return tuple(p for p, _ in speaker.Say(lang, text, 175, 50)[1] if not IsPause(p))

    for lang in languages:
        alone = {w: Phones(lang, w) for w in WORDS}
        for w in WORDS:
            Add(w, alone[w])
            for v in VOWEL_WORDS:
                both = Phones(lang, w + " " + v)
                if both[len(both) - len(alone[v]):] == alone[v]:
                    Add(w, both[:len(both) - len(alone[v])])
    return lexicon


def SplitWords(words, phones, lexicon):
    """The non-pause phones [(name, start)] cut into the words'
    pronunciations: a list of lists of indices into phones, or None."""
    out, i = [], 0
    for w in words:
        while i < len(phones) and IsPause(phones[i][0]):
            i += 1
        for pron in sorted(lexicon[w], key=len, reverse=True):
            names = tuple(p for p, _ in phones[i:i + len(pron)])
            if names == pron:
                out.append(list(range(i, i + len(pron))))
                i += len(pron)
                break
        else:
            return None
    if any(not IsPause(p) for p, _ in phones[i:]):
        return None
    return out


def NumFrames(num_samples, rate):
    window = int(FRAME_LENGTH * rate)
    return 0 if num_samples < window else 1 + (num_samples - window) // int(FRAME_SHIFT * rate)


def Segments(phones, word_spans, num_samples, pad, end):
    """[(position-dependent phone, frames)] covering every frame at 16 kHz of
    num_samples at 22050 Hz, whose speech is samples [pad, end): a frame
    belongs to the phone its centre falls in; pauses and padding are SIL."""
    labels = []  # (start second, label), sorted
    labels.append((0.0, "SIL"))
    in_word = {}
    for span in word_spans:
        for k, idx in enumerate(span):
            pos = "S" if len(span) == 1 else "B" if k == 0 else "E" if k == len(span) - 1 else "I"
            in_word[idx] = "%s_%s" % (phones[idx][0], pos)
    for idx, (name, sample) in enumerate(phones):
        labels.append(((sample + pad) / RATE, in_word.get(idx, "SIL")))
    labels.append((end / RATE, "SIL"))
    # sox's rate effect gives round(n * 16000 / 22050) samples.
    num_frames = NumFrames((num_samples * 16000 + RATE // 2) // RATE, 16000)
    frames, j = [], 0
    for t in range(num_frames):
        centre = t * FRAME_SHIFT + FRAME_LENGTH / 2
        while j + 1 < len(labels) and labels[j + 1][0] <= centre:
            j += 1
        frames.append(labels[j][1])
    segments = []
    for label in frames:
        if segments and segments[-1][0] == label:
            segments[-1][1] += 1
        else:
            segments.append([label, 1])
    return segments


def ShortPhone(segments, min_frames):
    return any(n < (3 if p == "SIL" else min_frames) for p, n in segments)


def WriteWav(path, samples):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.astype("<i2").tobytes())


def AddNoise(samples, snr_db, rng):
    """samples plus white noise snr_db below the speech's mean power."""
    x = samples.astype(np.float64)
    voiced = x[np.abs(x) > 0.02 * np.abs(x).max()] if len(x) else x
    power = np.mean(voiced ** 2) if len(voiced) else 1.0
    noise = rng.normal(0.0, np.sqrt(power / 10 ** (snr_db / 10)), len(x))
    return np.clip(np.round(x + noise), -32768, 32767).astype(np.int16)


def RandomText(rng, pause_prob):
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 7))]
    text = words[0]
    for w in words[1:]:
        text += (", " if rng.random() < pause_prob else " ") + w
    return words, text


def Synthesize(speaker, voice, rng, args):
    """(words, padded samples, phones, first and one past the last speech
    sample) of one utterance."""
    words, text = RandomText(rng, args.pause_prob)
    rate = rng.randint(args.min_rate, args.max_rate)
    pitch = rng.randint(30, 70)
    audio, phones = speaker.Say(voice, text, rate, pitch)
    pad = int(rng.uniform(0.15, 0.35) * RATE)
    tail = int(rng.uniform(0.15, 0.35) * RATE)
    samples = np.concatenate([np.zeros(pad, np.int16), audio, np.zeros(tail, np.int16)])
    return words, samples, phones, pad, pad + len(audio)


def SpeakerId(voice):
    lang, variant = voice.split("+")
    return lang.replace("-", "") + "-" + variant


def MakeSet(speaker, name, voices, num_utts, lexicon, args, rng):
    """Writes data/<name> (and train's segments.txt); returns the
    utterances' records for the noisy copy."""
    wav_dir = os.path.abspath(os.path.join(args.data, "local", "wav", name))
    os.makedirs(wav_dir, exist_ok=True)
    out = os.path.join(args.data, name)
    os.makedirs(out, exist_ok=True)
    records, dropped, seconds = [], {"lexicon": 0, "short": 0}, 0.0
    noise_rng, num_noisy = np.random.default_rng(args.seed + 1), 0
    for i in range(num_utts):
        voice = voices[i % len(voices)]
        words, samples, phones, pad, end = Synthesize(speaker, voice, rng, args)
        utt = "%s-%05d" % (SpeakerId(voice), i)
        segments = None
        if name == "train":
            spans = SplitWords(words, phones, lexicon)
            if spans is None:
                dropped["lexicon"] += 1
                continue
            segments = Segments(phones, spans, len(samples), pad, end)
            if ShortPhone(segments, args.min_phone_frames):
                dropped["short"] += 1
                continue
        if name == "train" and rng.random() < args.train_noise_prob:
            samples = AddNoise(samples, rng.uniform(*args.train_snr), noise_rng)
            num_noisy += 1
        path = os.path.join(wav_dir, utt + ".wav")
        WriteWav(path, samples)
        seconds += len(samples) / RATE
        records.append((utt, SpeakerId(voice), words, samples, segments))
    WriteDataDir(out, records, wav_dir)
    print("make_data.py: %s: %d utterances (%d with noise), %.1f minutes, %d speakers; "
          "left out: %d (phonemes not in the lexicon), %d (a phone below the minimum "
          "length)" % (name, len(records), num_noisy, seconds / 60, len(voices),
                       dropped["lexicon"], dropped["short"]))
    return records


def WriteDataDir(out, records, wav_dir):
    records = sorted(records)
    spk2utt = {}
    with open(os.path.join(out, "wav.scp"), "w") as scp, \
            open(os.path.join(out, "text"), "w") as text, \
            open(os.path.join(out, "utt2spk"), "w") as u2s:
        for utt, spk, words, _, _ in records:
            scp.write("%s sox -R %s/%s.wav -r 16000 -t wav - |\n" % (utt, wav_dir, utt))
            text.write("%s %s\n" % (utt, " ".join(words)))
            u2s.write("%s %s\n" % (utt, spk))
            spk2utt.setdefault(spk, []).append(utt)
    with open(os.path.join(out, "spk2utt"), "w") as s2u:
        for spk in sorted(spk2utt):
            s2u.write("%s %s\n" % (spk, " ".join(spk2utt[spk])))
    if records and records[0][4] is not None:
        with open(os.path.join(out, "segments.txt"), "w") as f:
            for utt, _, _, _, segments in records:
                f.write(utt + " " + " ".join("%s %d" % (p, n) for p, n in segments) + "\n")


def MakeNoisy(records, args, seed):
    name = "test_noisy"
    wav_dir = os.path.abspath(os.path.join(args.data, "local", "wav", name))
    os.makedirs(wav_dir, exist_ok=True)
    rng = np.random.default_rng(seed)
    for utt, _, _, samples, _ in records:
        WriteWav(os.path.join(wav_dir, utt + ".wav"), AddNoise(samples, args.snr, rng))
    os.makedirs(os.path.join(args.data, name), exist_ok=True)
    WriteDataDir(os.path.join(args.data, name), records, wav_dir)
    print("make_data.py: %s: the %d test utterances with white noise at %g dB SNR"
          % (name, len(records), args.snr))


def WriteDict(lexicon, out):
    os.makedirs(out, exist_ok=True)
    phones = sorted({p for prons in lexicon.values() for pron in prons for p in pron})
    with open(os.path.join(out, "lexicon.txt"), "w") as f:
        f.write("<unk> SIL\n")
        for w in sorted(lexicon):
            for pron in lexicon[w]:
                f.write("%s %s\n" % (w, " ".join(pron)))
    with open(os.path.join(out, "nonsilence_phones.txt"), "w") as f:
        f.write("".join(p + "\n" for p in phones))
    for name in ("silence_phones.txt", "optional_silence.txt"):
        with open(os.path.join(out, name), "w") as f:
            f.write("SIL\n")


def ParseArgs():
    parser = argparse.ArgumentParser(
        description="Spoken digits from espeak-ng as Kaldi data directories.")
    parser.add_argument("--num-train", type=int, default=2000)
    parser.add_argument("--num-test", type=int, default=300)
    parser.add_argument("--languages", default="en-us en",
                        help="espeak-ng languages; every voice is <language>+<variant>")
    parser.add_argument("--train-variants", default="m1 m2 m3 m4 m5 f1 f2 f3 klatt")
    parser.add_argument("--test-variants", default="m6 m7 f4 f5")
    parser.add_argument("--min-rate", type=int, default=140, help="words per minute")
    parser.add_argument("--max-rate", type=int, default=220)
    parser.add_argument("--pause-prob", type=float, default=0.1)
    parser.add_argument("--min-phone-frames", type=int, default=2)
    parser.add_argument("--snr", type=float, default=10.0, help="dB, of test_noisy")
    parser.add_argument("--train-noise-prob", type=float, default=0.5,
                        help="the part of the training utterances with white noise")
    parser.add_argument("--train-snr", type=float, nargs=2, default=[5.0, 20.0],
                        help="their SNR, uniform between these (dB)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("data")
    return parser.parse_args()


def main():
    args = ParseArgs()
    print("make_data.py: seed %d" % args.seed)
    speaker = Speaker()
    languages = args.languages.split()
    train_voices = ["%s+%s" % (l, v) for l in languages for v in args.train_variants.split()]
    test_voices = ["%s+%s" % (l, v) for l in languages for v in args.test_variants.split()]
    if set(train_voices) & set(test_voices):
        sys.exit("make_data.py: the test voices must be held out from training")
    for voice in train_voices + test_voices:
        speaker.CheckVoice(voice)
    lexicon = MakeLexicon(speaker, languages)
    WriteDict(lexicon, os.path.join(args.data, "local", "dict"))
    rng = random.Random(args.seed)
    MakeSet(speaker, "train", train_voices, args.num_train, lexicon, args, rng)
    records = MakeSet(speaker, "test", test_voices, args.num_test, lexicon, args, rng)
    MakeNoisy(records, args, args.seed)


if __name__ == "__main__":
    main()
