#include "train/multitask-egs.h"

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

NnetIo &FindOutputIo(const std::string &key, NnetExample *eg) {
  NnetIo *found = nullptr;
  for (NnetIo &io : eg->io)
    if (io.name == "output" && found == nullptr) found = &io;
  if (found == nullptr)
    NNET3_ERR << "No io-node with name 'output' in the example with key " << key
              << " (--outputs and --weights act on 'output')";
  return *found;
}

}  // namespace

void RenameOutputs(const std::string &key, const std::string &new_name,
                   NnetExample *eg) {
  FindOutputIo(key, eg).name = new_name;
}

void ScaleSupervisionWeight(const std::string &key, float weight,
                            NnetExample *eg) {
  if (weight == 1.0f) return;
  FindOutputIo(key, eg).features.Scale(weight);
}

void MultitaskEgsOptions::Register(OptionsRegistry *po) {
  po->Register("weights", &weights_rspecifier,
               "Rspecifier indexed by the key of egs, providing a weight by "
               "which we will scale the supervision matrix for that eg. Used "
               "in multilingual training.");
  po->Register("outputs", &outputs_rspecifier,
               "Rspecifier indexed by the key of egs, providing a "
               "string-valued output name, e.g. 'output-0'.  If provided, the "
               "NnetIo with name 'output' will be renamed to the provided "
               "name. Used in multilingual training.");
}

MultitaskEgsEditor::MultitaskEgsEditor(const MultitaskEgsOptions &opts) {
  if (!opts.weights_rspecifier.empty())
    weight_reader_.Open(opts.weights_rspecifier);
  if (!opts.outputs_rspecifier.empty())
    output_name_reader_.Open(opts.outputs_rspecifier);
}

bool MultitaskEgsEditor::ScaleAndGetName(const std::string &key,
                                         NnetExample *eg,
                                         std::string *new_name) {
  new_name->clear();
  if (weight_reader_.IsOpen() && !weight_reader_.HasKey(key)) {
    NNET3_WARN << "No weight for example key " << key;
    return false;
  }
  if (output_name_reader_.IsOpen() && !output_name_reader_.HasKey(key)) {
    NNET3_WARN << "No new output-name for example key " << key;
    return false;
  }
  if (weight_reader_.IsOpen())
    ScaleSupervisionWeight(key, weight_reader_.Value(key), eg);
  if (output_name_reader_.IsOpen()) *new_name = output_name_reader_.Value(key);
  return true;
}

}  // namespace nnet3
