// WordBoundaryInfo: where each phone sits in a word, as the lang
// directory's phones/word_boundary.int says (Kaldi's WordBoundaryInfo with
// WordBoundaryInfoNewOpts). Word alignment of lattices
// (word-align-lattice.h) reads it to find where one word's transition-ids
// end and the next word's begin.
//
//   WordBoundaryInfoOptions opts;        // --silence-label, --reorder, ...
//   opts.Register(&po);
//   WordBoundaryInfo info(opts, "data/lang/phones/word_boundary.int");
//   if (info.TypeOfPhone(phone) == WordBoundaryInfo::kWordBeginPhone) ...
//
// File format, one phone a line: "<phone-id> begin|end|singleton|internal|
// nonword" (nonword: silence and noise phones, which carry no word label).
// Phones the file does not name have type kNoPhone, as in Kaldi; a phone
// above the highest one named is a UserError when asked about.
#ifndef NNET3_LAT_WORD_BOUNDARY_INFO_H_
#define NNET3_LAT_WORD_BOUNDARY_INFO_H_

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace nnet3 {

class OptionsRegistry;

// The options of lattice-align-words (Kaldi's names and defaults).
struct WordBoundaryInfoOptions {
  int32_t silence_label = 0;       // word label of silence arcs (0: none)
  int32_t partial_word_label = 0;  // label of partial words at the end of
                                   // a forced-out lattice (0: none)
  bool reorder = true;  // the graph had self-loops reordered after the
                        // forward transition (mkgraph's default)
  void Register(OptionsRegistry *opts);
};

class WordBoundaryInfo {
 public:
  enum PhoneType {
    kNoPhone = 0,
    kWordBeginPhone,
    kWordEndPhone,
    kWordBeginAndEndPhone,
    kWordInternalPhone,
    kNonWordPhone,
  };

  // Reads `word_boundary_rxfilename`; UserError naming the file and line on
  // a bad line, a phone id below 1, or an empty file.
  WordBoundaryInfo(const WordBoundaryInfoOptions &opts,
                   const std::string &word_boundary_rxfilename);
  // The same from a stream (`name` for messages).
  WordBoundaryInfo(const WordBoundaryInfoOptions &opts, std::istream &is,
                   const std::string &name);

  // UserError for a phone the file cannot describe (negative or above the
  // highest phone it names).
  PhoneType TypeOfPhone(int32_t phone) const;

  int32_t silence_label;
  int32_t partial_word_label;
  bool reorder;

 private:
  void Init(std::istream &is, const std::string &name);

  std::vector<PhoneType> phone_to_type_;
  std::string name_;
};

}  // namespace nnet3

#endif  // NNET3_LAT_WORD_BOUNDARY_INFO_H_
