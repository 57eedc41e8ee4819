// lattice-mbr-decode: Minimum Bayes Risk decoding of lattices, with the
// Bayes risk, the sausage statistics and times as optional outputs
// (Kaldi's tool of the same name; lat/minimum-bayes-risk.h).
#include <fst/symbol-table.h>

#include <cstdint>
#include <memory>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/graph-checks.h"
#include "fstext/lattice-scale.h"
#include "lat/kaldi-lattice.h"
#include "lat/minimum-bayes-risk.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Do Minimum Bayes Risk decoding (decoding that aims to minimize the \n"
    "expected word error rate).  Possible outputs include the 1-best path\n"
    "(i.e. the word-sequence, as a sequence of ints per utterance), the\n"
    "computed Bayes Risk for each utterance, and the sausage stats as\n"
    "(for each utterance) std::vector<std::vector<std::pair<int32, float> > "
    ">\n"
    "for which we use the same I/O routines as for posteriors (type "
    "Posterior).\n"
    "times-wspecifier writes pairs of (start-time, end-time) in frames, for\n"
    "each sausage position, or for each one-best entry if "
    "--one-best-times=true.\n"
    "Note: use ark:/dev/null or the empty string for unwanted outputs.\n"
    "Note: times will only be very meaningful if you first use "
    "lattice-align-words.\n"
    "If you need ctm-format output, don't use this program but use "
    "lattice-to-ctm-conf\n"
    "with --decode-mbr=true.\n"
    "\n"
    "Usage: lattice-mbr-decode [options]  lattice-rspecifier "
    "transcriptions-wspecifier [ bayes-risk-wspecifier [ "
    "sausage-stats-wspecifier [ times-wspecifier] ] ] \n"
    " e.g.: lattice-mbr-decode --acoustic-scale=0.1 ark:1.lats "
    "'ark,t:|int2sym.pl -f 2- words.txt > text' ark:/dev/null ark:1.sau\n"
    "See also: lattice-to-ctm-conf, lattice-align-words\n";

// Opens a writer unless its wspecifier is empty (an unwanted output).
template <class Writer>
void OpenIfGiven(const std::string &wspecifier, Writer *writer) {
  if (!wspecifier.empty()) writer->Open(wspecifier);
}

}  // namespace

int main(int argc, char *argv[]) {
  using namespace nnet3;
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    float acoustic_scale = 1.0f, lm_scale = 1.0f;
    bool one_best_times = false;
    std::string word_syms_filename;
    po.Register("acoustic-scale", &acoustic_scale,
                "Scaling factor for acoustic likelihoods");
    po.Register("lm-scale", &lm_scale,
                "Scaling factor for language model probabilities");
    po.Register("word-symbol-table", &word_syms_filename,
                "Symbol table for words [for debug output]");
    po.Register("one-best-times", &one_best_times,
                "If true, output times corresponding to one-best, not whole "
                "sausage.");
    po.Read(argc, argv);
    if (po.NumArgs() < 2 || po.NumArgs() > 5) {
      po.PrintUsage();
      return 1;
    }
    SequentialCompactLatticeReader reader(po.GetArg(1));
    Int32VectorWriter trans_writer;
    BaseFloatWriter bayes_risk_writer;
    PosteriorWriter sausage_stats_writer;  // the same type as posteriors
    BaseFloatPairVectorWriter times_writer;
    OpenIfGiven(po.GetArg(2), &trans_writer);
    OpenIfGiven(po.GetOptArg(3), &bayes_risk_writer);
    OpenIfGiven(po.GetOptArg(4), &sausage_stats_writer);
    OpenIfGiven(po.GetOptArg(5), &times_writer);
    std::unique_ptr<fst::SymbolTable> word_syms;
    if (!word_syms_filename.empty())
      word_syms.reset(ReadSymbolTableText(word_syms_filename));
    int32_t num_done = 0, num_words = 0;
    float total_bayes_risk = 0.0f;
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      CompactLattice clat = reader.Value();
      reader.FreeCurrent();
      ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &clat);
      const MinimumBayesRisk mbr(clat);
      if (trans_writer.IsOpen()) trans_writer.Write(key, mbr.GetOneBest());
      if (bayes_risk_writer.IsOpen())
        bayes_risk_writer.Write(key, mbr.GetBayesRisk());
      if (sausage_stats_writer.IsOpen())
        sausage_stats_writer.Write(key, mbr.GetSausageStats());
      if (times_writer.IsOpen())
        times_writer.Write(key, one_best_times ? mbr.GetOneBestTimes()
                                               : mbr.GetSausageTimes());
      ++num_done;
      num_words += mbr.GetOneBest().size();
      total_bayes_risk += mbr.GetBayesRisk();
    }
    if (trans_writer.IsOpen()) trans_writer.Close();
    if (bayes_risk_writer.IsOpen()) bayes_risk_writer.Close();
    if (sausage_stats_writer.IsOpen()) sausage_stats_writer.Close();
    if (times_writer.IsOpen()) times_writer.Close();
    NNET3_LOG << "Done " << num_done << " lattices.";
    NNET3_LOG << "Average Bayes Risk per sentence is "
              << (total_bayes_risk / num_done) << " and per word, "
              << (total_bayes_risk / num_words);
    return num_done != 0 ? 0 : 1;
  });
}
