// lattice-best-path: the best path of each compact lattice as a word
// sequence and an alignment (Kaldi's tool of the same name, the last step of
// scoring before compute-wer).
#include "lat/lattice-best-path.h"

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "fstext/graph-checks.h"
#include "lat/kaldi-lattice.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Generate 1-best path through lattices; output as transcriptions and "
    "alignments\n"
    "Note: if you want output as FSTs, use lattice-1best; if you want output\n"
    "with acoustic and LM scores, use lattice-1best | nbest-to-linear\n"
    "Usage: lattice-best-path [options]  <lattice-rspecifier> [ "
    "<transcriptions-wspecifier> [ <alignments-wspecifier>] ]\n"
    " e.g.: lattice-best-path --acoustic-scale=0.1 ark:1.lats "
    "'ark,t:|int2sym.pl "
    "-f 2- words.txt > text' ark:1.ali\n"
    "See also: lattice-1best, lattice-scale, lattice-add-penalty\n";

// Kaldi prints each utterance's words to stderr as a bare line.
void PrintWords(const std::string &key, const std::vector<int32_t> &words,
                const fst::SymbolTable &word_syms) {
  std::string line = key + ' ';
  for (int32_t word : words) {
    const std::string symbol = word_syms.Find(word);
    if (symbol.empty())
      NNET3_ERR << "Word-id " << word << " not in symbol table.";
    line += symbol + ' ';
  }
  std::cerr << line << '\n';
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    float acoustic_scale = 1.0f, lm_scale = 1.0f;
    std::string word_syms_filename;
    po.Register("acoustic-scale", &acoustic_scale,
                "Scaling factor for acoustic likelihoods");
    po.Register("lm-scale", &lm_scale,
                "Scaling factor for LM probabilities. Note: the ratio "
                "acoustic-scale/lm-scale is all that matters.");
    po.Register("word-symbol-table", &word_syms_filename,
                "Symbol table for words [for debug output]");
    po.Read(argc, argv);
    if (po.NumArgs() < 1 || po.NumArgs() > 3) {
      po.PrintUsage();
      return 1;
    }
    const std::string words_wspecifier = po.GetOptArg(2),
                      ali_wspecifier = po.GetOptArg(3);
    SequentialCompactLatticeReader reader(po.GetArg(1));
    Int32VectorWriter words_writer, ali_writer;
    if (!words_wspecifier.empty()) words_writer.Open(words_wspecifier);
    if (!ali_wspecifier.empty()) ali_writer.Open(ali_wspecifier);
    std::unique_ptr<fst::SymbolTable> word_syms;
    if (!word_syms_filename.empty())
      word_syms.reset(ReadSymbolTableText(word_syms_filename));

    int64_t n_done = 0, n_fail = 0, n_frame = 0;
    LatticeWeight total = LatticeWeight::One();
    for (; !reader.Done(); reader.Next()) {
      const std::string key = reader.Key();
      LatticeBestPath best;
      if (!CompactLatticeBestPath(reader.Value(), lm_scale, acoustic_scale,
                                  &best)) {
        NNET3_WARN << "Best-path failed for key " << key;
        ++n_fail;
        continue;
      }
      const LatticeWeight &w = best.weight;
      NNET3_LOG << "For utterance " << key << ", best cost " << w.Value1()
                << " + " << w.Value2() << " = " << (w.Value1() + w.Value2())
                << " over " << best.alignment.size() << " frames.";
      if (words_writer.IsOpen()) words_writer.Write(key, best.words);
      if (ali_writer.IsOpen()) ali_writer.Write(key, best.alignment);
      if (word_syms) PrintWords(key, best.words, *word_syms);
      ++n_done;
      n_frame += static_cast<int64_t>(best.alignment.size());
      total = Times(total, w);
    }
    reader.Close();
    if (words_writer.IsOpen()) words_writer.Close();
    if (ali_writer.IsOpen()) ali_writer.Close();
    const float total_cost = total.Value1() + total.Value2();
    NNET3_LOG << "Overall cost per frame is " << (total_cost / n_frame) << " = "
              << (total.Value1() / n_frame) << " [graph]"
              << " + " << (total.Value2() / n_frame) << " [acoustic]"
              << " over " << n_frame << " frames.";
    NNET3_LOG << "Done " << n_done << " lattices, failed for " << n_fail;
    return n_done != 0 ? 0 : 1;
  });
}
