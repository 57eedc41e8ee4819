#include "lat/word-boundary-info.h"

#include <string>
#include <vector>

#include "base/error.h"
#include "base/options.h"
#include "base/text-utils.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void WordBoundaryInfoOptions::Register(OptionsRegistry *opts) {
  opts->Register("silence-label", &silence_label,
                 "Numeric id of word symbol that is to be used for silence "
                 "arcs in the word-aligned lattice (zero is OK)");
  opts->Register("partial-word-label", &partial_word_label,
                 "Numeric id of word symbol that is to be used for arcs in "
                 "the word-aligned lattice corresponding to partial words at "
                 "the end of \"forced-out\" utterances (zero is OK)");
  opts->Register("reorder", &reorder,
                 "True if the lattices were generated from graphs that had "
                 "the --reorder option true, relating to reordering "
                 "self-loops (typically true)");
}

WordBoundaryInfo::WordBoundaryInfo(const WordBoundaryInfoOptions &opts,
                                   const std::string &word_boundary_rxfilename)
    : silence_label(opts.silence_label),
      partial_word_label(opts.partial_word_label),
      reorder(opts.reorder) {
  bool binary = false;
  Input ki(word_boundary_rxfilename, &binary);
  const std::string name = PrintableRxfilename(word_boundary_rxfilename);
  if (binary)
    NNET3_ERR << "The word-boundary file '" << name
              << "' is binary; expected lines \"<phone-id> <type>\"";
  Init(ki.Stream(), name);
  ki.Close();
}

WordBoundaryInfo::WordBoundaryInfo(const WordBoundaryInfoOptions &opts,
                                   std::istream &is, const std::string &name)
    : silence_label(opts.silence_label),
      partial_word_label(opts.partial_word_label),
      reorder(opts.reorder) {
  Init(is, name);
}

void WordBoundaryInfo::Init(std::istream &is, const std::string &name) {
  name_ = name;
  std::string line;
  for (int line_number = 1; std::getline(is, line); ++line_number) {
    const std::vector<std::string> fields = SplitString(line, " \t\r", true);
    int32_t phone = 0;
    PhoneType type = kNoPhone;
    if (fields.size() == 2 && ConvertStringToInteger(fields[0], &phone)) {
      const std::string &t = fields[1];
      if (t == "nonword") type = kNonWordPhone;
      if (t == "begin") type = kWordBeginPhone;
      if (t == "singleton") type = kWordBeginAndEndPhone;
      if (t == "end") type = kWordEndPhone;
      if (t == "internal") type = kWordInternalPhone;
    }
    if (type == kNoPhone || phone <= 0)
      NNET3_ERR << "Invalid line " << line_number << " in word-boundary file '"
                << name << "': \"" << line
                << "\" (expected \"<phone-id> begin|end|singleton|internal|"
                   "nonword\", phone-id >= 1)";
    if (phone_to_type_.size() <= static_cast<size_t>(phone))
      phone_to_type_.resize(phone + 1, kNoPhone);
    phone_to_type_[phone] = type;
  }
  if (phone_to_type_.empty())
    NNET3_ERR << "Empty word-boundary file '" << name << "'";
}

WordBoundaryInfo::PhoneType WordBoundaryInfo::TypeOfPhone(int32_t phone) const {
  if (phone < 0 || static_cast<size_t>(phone) >= phone_to_type_.size())
    NNET3_ERR << "Phone " << phone << " was not specified in word-boundary "
              << "file '" << name_ << "' (it names phones up to "
              << phone_to_type_.size() - 1
              << "; do the lang directory and the model match?)";
  return phone_to_type_[phone];
}

}  // namespace nnet3
