// Multitask egs, as nnet3-copy-egs --weights / --outputs make them for
// Kaldi's multilingual recipes: each eg's supervision "output" is scaled by
// a per-eg weight and renamed to a per-eg output node ("output-0", ...),
// both looked up by the eg's key in tables.
//
//   MultitaskEgsOptions opts;  opts.Register(&po);   // --weights, --outputs
//   MultitaskEgsEditor editor(opts);                 // opens the tables
//   std::string new_name;
//   if (!editor.ScaleAndGetName(key, &eg, &new_name)) skip the eg;
//   ... select frames (which looks for "output") ...
//   if (!new_name.empty()) RenameOutputs(key, new_name, &eg);
#ifndef NNET3_TRAIN_MULTITASK_EGS_H_
#define NNET3_TRAIN_MULTITASK_EGS_H_

#include <string>

#include "base/options.h"
#include "train/nnet-example.h"
#include "util/table-types.h"
#include "util/token-holder.h"

namespace nnet3 {

// Renames the io named "output" to new_name. UserError naming `key` if the
// eg has none.
void RenameOutputs(const std::string &key, const std::string &new_name,
                   NnetExample *eg);
// Scales the supervision of the io named "output" (a compressed matrix
// stays compressed, its header scaled, as in Kaldi). UserError naming `key`
// if the eg has none.
void ScaleSupervisionWeight(const std::string &key, float weight,
                            NnetExample *eg);

struct MultitaskEgsOptions {
  std::string weights_rspecifier, outputs_rspecifier;
  void Register(OptionsRegistry *po);
};

class MultitaskEgsEditor {
 public:
  // Opens the tables that are given (UserError if one cannot be opened).
  explicit MultitaskEgsEditor(const MultitaskEgsOptions &opts);
  // With --weights, scales the eg's "output" by its key's weight; with
  // --outputs, sets *new_name to its key's output name (else ""). Returns
  // false, after a warning and changing nothing, if a table lacks the key.
  bool ScaleAndGetName(const std::string &key, NnetExample *eg,
                       std::string *new_name);

 private:
  RandomAccessBaseFloatReader weight_reader_;
  RandomAccessTokenReader output_name_reader_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_MULTITASK_EGS_H_
