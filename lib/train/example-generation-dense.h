// Cutting utterances into training examples whose supervision is a dense
// matrix of targets (one row per output frame), as
// nnet3-get-egs-dense-targets does: Kaldi's ProcessFile of that program.
//
//   ExampleGenerationConfig eg_config;  eg_config.Register(&po);
//   GetEgsDenseOptions opts;            opts.Register(&po);
//   po.Read(argc, argv);  eg_config.ComputeDerived();
//   UtteranceSplitter splitter(eg_config);
//   std::vector<std::pair<std::string, NnetExample>> egs;
//   if (GetDenseEgsForUtterance(utt, feats, ivectors, targets, opts,
//                               &splitter, &rng, &egs)) ... write egs ...
//
// The chunks come from the UtteranceSplitter (example-generation.h); each eg
// has "input" (the chunk with its context, t from -left_context), an
// optional "ivector" (one row, as nnet3-get-egs picks it) and "output": the
// chunk's rows of the target matrix (output frame i of the chunk is target
// row first_frame / fss + i, the last row repeated past the end), with
// indexes t = 0, fss, 2 fss, ... As in Kaldi the target rows are copied
// unweighted (frames shared by overlapping chunks count once per chunk), and
// with --compress the input and the targets are both compressed.
#ifndef NNET3_TRAIN_EXAMPLE_GENERATION_DENSE_H_
#define NNET3_TRAIN_EXAMPLE_GENERATION_DENSE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/options.h"
#include "base/random.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "train/example-generation.h"
#include "train/nnet-example.h"

namespace nnet3 {

// The options of nnet3-get-egs-dense-targets that are not about splitting.
struct GetEgsDenseOptions {
  int32_t num_targets = -1;  // checked against the targets if >= 0
  bool compress = true;
  int32_t online_ivector_period = 1;
  int32_t length_tolerance = 100;  // features vs. iVectors
  int32_t targets_length_tolerance = 2;

  void Register(OptionsRegistry *po);
  // UserError for a bad period.
  void Check() const;
};

// The egs of one utterance, keyed "<utt>-<first_frame>", appended to *egs.
// ivectors may be null. Returns false, after a warning naming the utterance,
// when it is skipped: iVector or target length beyond the tolerances, no
// target rows, or too short for any chunk. Targets whose column count is not
// --num-targets (when given) are a UserError naming the utterance.
bool GetDenseEgsForUtterance(
    const std::string &utt, const GeneralMatrix &feats,
    const MatrixView *ivectors, const MatrixView &targets,
    const GetEgsDenseOptions &opts, UtteranceSplitter *splitter,
    RandomState *rng, std::vector<std::pair<std::string, NnetExample>> *egs);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EXAMPLE_GENERATION_DENSE_H_
