// nbest-to-ctm: the words of linear, word-aligned lattices as CTM lines
// "<utterance-id> 1 <begin-seconds> <duration-seconds> <word-id>" (Kaldi's
// tool of the same name).
#include <cstdint>
#include <ios>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-word-alignment.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Takes as input lattices which must be linear (single path),\n"
    "and must be in CompactLattice form where the transition-ids on the "
    "arcs\n"
    "have been aligned with the word boundaries... typically the input will\n"
    "be a lattice that has been piped through lattice-1best and then\n"
    "lattice-align-words. (Output of lattice-align-words-lexicon needs\n"
    "lattice-1best after it, as it may not be linear.) It outputs ctm\n"
    "format (with integers in place of words), assuming the frame length is\n"
    "0.01 seconds by default (change this with the --frame-shift option).\n"
    "Note: the output is in the form\n"
    "<utterance-id> 1 <begin-time> <end-time> <word-id>\n"
    "and you can post-process this to account for segmentation issues and "
    "to\n"
    "convert ints to words; note, the times are relative to start of the "
    "utterance.\n"
    "\n"
    "Usage: nbest-to-ctm [options] <aligned-linear-lattice-rspecifier> "
    "<ctm-wxfilename>\n"
    "e.g.: lattice-1best --acoustic-weight=0.08333 ark:1.lats | \\\n"
    "      lattice-align-words data/lang/phones/word_boundary.int "
    "exp/dir/final.mdl ark:- ark:- | \\\n"
    "      nbest-to-ctm ark:- 1.ctm\n"
    "See also: lattice-align-words, lattice-to-ctm-conf\n";

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool print_silence = false;
    float frame_shift = 0.01f;
    int32_t precision = 2;
    po.Register("print-silence", &print_silence,
                "If true, print optional-silence (<eps>) arcs");
    po.Register("frame-shift", &frame_shift, "Time in seconds between frames.");
    po.Register("precision", &precision,
                "Number of decimal places for start duration times (note: we "
                "may use a higher value than this if it's obvious from "
                "--frame-shift that this value is too small");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    // Compared in double, as Kaldi does: the default 0.01f is below 0.01,
    // so its CTMs have 3 decimals.
    const double shift = frame_shift;
    if (shift < 0.01 && precision <= 2) precision = 3;
    if (shift < 0.001 && precision <= 3) precision = 4;
    SequentialCompactLatticeReader reader(po.GetArg(1));
    Output ko(po.GetArg(2), false);
    std::ostream &os = ko.Stream();
    os << std::fixed;
    os.precision(precision);
    int32_t num_done = 0, num_err = 0;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      std::vector<int32_t> words, times, lengths;
      if (!CompactLatticeToWordAlignment(reader.Value(), &words, &times,
                                         &lengths)) {
        ++num_err;
        NNET3_WARN << "Format conversion failed for key " << key;
        continue;
      }
      for (size_t i = 0; i < words.size(); ++i) {
        if (words[i] == 0 && !print_silence) continue;  // optional silence
        os << key << " 1 " << (frame_shift * times[i]) << ' '
           << (frame_shift * lengths[i]) << ' ' << words[i] << std::endl;
      }
      ++num_done;
    }
    ko.Close();
    NNET3_LOG << "Converted " << num_done << " linear lattices to ctm format; "
              << num_err << " had errors.";
    return num_done != 0 ? 0 : 1;
  });
}
