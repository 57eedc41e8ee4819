// UtteranceComputer: the interface of "compute a network's output for one
// whole utterance", which the utterance loop of nnet3-compute
// (compute/inference-loop.h) drives. NnetSimpleComputer (chunked, Kaldi's
// DecodableNnetSimple) implements it; other strategies (looped computation
// for recurrent networks, ...) can implement it too and reuse the loop.
//
//   UtteranceComputer &computer = ...;
//   Matrix output;
//   computer.ComputeUtterance("utt1", features, ivector_or_null,
//                             online_ivectors_or_null, period, &output);
//
// ComputeUtterance throws UserError (naming the utterance) for bad input:
// wrong dimensions, missing or unexpected i-vectors, an empty utterance.
#ifndef NNET3_COMPUTE_UTTERANCE_COMPUTER_H_
#define NNET3_COMPUTE_UTTERANCE_COMPUTER_H_

#include <cstdint>
#include <string>

#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

class UtteranceComputer {
 public:
  virtual ~UtteranceComputer() = default;
  // The dimension of the network's "ivector" input; 0 if it has none.
  virtual int32_t IvectorDim() const = 0;
  // The output for `features` (one row per output frame) into *output. At
  // most one of `ivector` (per utterance) and `online_ivectors` (one row
  // every `online_ivector_period` input frames) is given.
  virtual void ComputeUtterance(const std::string &utterance,
                                const MatrixView &features,
                                const VectorView *ivector,
                                const MatrixView *online_ivectors,
                                int32_t online_ivector_period,
                                Matrix *output) = 0;
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_UTTERANCE_COMPUTER_H_
