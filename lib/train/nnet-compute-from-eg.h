// NnetComputerFromEg: the forward pass of a network on the inputs of an eg,
// for one named output (Kaldi's class of the same name in
// nnet3-compute-from-egs, also the core of nnet3-acc-lda-stats).
//
//   NnetComputerFromEg computer(nnet);
//   Matrix output;
//   computer.Compute(eg, "output", &output);   // one row per output index
//
// The request is the eg's (GetComputationRequest without derivatives), so
// the eg must have an io for the wanted output node; the network is used as
// it is (no test modes are set, as in Kaldi). Computations are cached per
// eg shape.
#ifndef NNET3_TRAIN_NNET_COMPUTE_FROM_EG_H_
#define NNET3_TRAIN_NNET_COMPUTE_FROM_EG_H_

#include <string>

#include "matrix/matrix.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"
#include "train/training-compiler.h"

namespace nnet3 {

class NnetComputerFromEg {
 public:
  // `nnet` must outlive this object.
  explicit NnetComputerFromEg(const Nnet &nnet);
  // UserError if `output_name` is not an output node of the network or the
  // eg has no io of that name, or the eg's inputs do not fit the network.
  void Compute(const NnetExample &eg, const std::string &output_name,
               Matrix *output);

 private:
  const Nnet &nnet_;
  TrainingCompiler compiler_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_COMPUTE_FROM_EG_H_
