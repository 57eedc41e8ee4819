// The acoustic scores of an nnet3 acoustic model for one utterance: Kaldi's
// DecodableAmNnetSimple (and, fed with the looped computer,
// DecodableAmNnetSimpleLooped). The network runs on the whole utterance
// when the decodable is made; then LogLikelihood(frame, tid) is
// (log p(pdf | x_frame) - log prior(pdf)) * acoustic_scale for the pdf of
// transition-id tid, computed in that order (first the subtraction, then
// the scaling, each in float) so that the scores round as Kaldi's.
//
//   std::unique_ptr<UtteranceComputer> computer =
//       NewDecodingComputer(decodable_opts, am_nnet.GetNnet());
//   Vector log_priors = LogPriorsOf(am_nnet);
//   DecodableAmNnetSimple decodable(utt, trans_model, log_priors,
//                                   decodable_opts.acoustic_scale,
//                                   computer.get(), features, ivector,
//                                   online_ivectors, period);
//   decoder.Decode(&decodable);
//
// The computer must give unscaled network output: NewDecodingComputer and
// NewLoopedDecodingInfo make one from the options with the acoustic scale
// taken out. The network's output dimension must equal the
// transition model's number of pdfs (UserError otherwise). LogLikelihood
// throws a UserError naming the utterance for a transition-id the model
// does not have (a graph made for another model). The scores are kept in
// host memory, frames x pdfs floats: the network's output matrix itself when
// it was computed on the CPU (whose device memory is host memory; no copy),
// else a copy of it on the CPU device.
#ifndef NNET3_DECODER_DECODABLE_AM_NNET_SIMPLE_H_
#define NNET3_DECODER_DECODABLE_AM_NNET_SIMPLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/am-nnet-simple.h"
#include "compute/decodable-simple-looped.h"
#include "compute/nnet-simple-computation.h"
#include "compute/utterance-computer.h"
#include "decoder/decodable-itf.h"
#include "hmm/transition-model.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

class DecodableAmNnetSimple final : public DecodableInterface {
 public:
  // Runs `computer` on the utterance (see the file comment). `log_priors`
  // is empty or has one entry per pdf. UserError (naming `utterance`) for
  // bad input, as the computer's.
  DecodableAmNnetSimple(const std::string &utterance,
                        const TransitionModel &trans_model,
                        const VectorView &log_priors, float acoustic_scale,
                        UtteranceComputer *computer, const MatrixView &features,
                        const VectorView *ivector,
                        const MatrixView *online_ivectors,
                        int32_t online_ivector_period);

  float LogLikelihood(int32_t frame, int32_t tid) override {
    if (static_cast<uint32_t>(tid) - 1u >=
        static_cast<uint32_t>(num_transition_ids_))
      BadTransitionId(tid);
    return scores_data_[static_cast<size_t>(frame) * scores_stride_ +
                        id2pdf_[tid]];
  }
  bool IsLastFrame(int32_t frame) const override {
    return frame == num_frames_ - 1;
  }
  int32_t NumFramesReady() const override { return num_frames_; }
  int32_t NumIndices() const override { return num_transition_ids_; }
  // Seconds the network took (for the programs' timing report).
  double NetworkSeconds() const { return network_seconds_; }

 private:
  void BadTransitionId(int32_t tid) const;

  std::string utterance_;
  const int32_t *id2pdf_;
  int32_t num_transition_ids_ = 0, num_pdfs_ = 0, num_frames_ = 0;
  Matrix scores_;  // num_frames_ x num_pdfs_, on the CPU device
  const float *scores_data_ = nullptr;  // host pointer to scores_ (0, 0)
  size_t scores_stride_ = 0;
  double network_seconds_ = 0.0;
};

// Reads a .mdl for decoding, as Kaldi's decoders do: batch-norm and dropout
// in test mode, the network collapsed. UserError if the file is not a .mdl.
void ReadAmNnetForDecoding(const std::string &rxfilename,
                           TransitionModel *trans_model, AmNnetSimple *am_nnet);

// The log of the model's priors (empty when it has none), on the active
// device, for DecodableAmNnetSimple.
Vector LogPriorsOf(const AmNnetSimple &am_nnet);

// A chunked computer (NnetSimpleComputer) for decoding with `nnet`: the
// options as given, but without the acoustic scale (the decodable applies
// it). `nnet` must outlive the computer.
std::unique_ptr<UtteranceComputer> NewDecodingComputer(
    const NnetSimpleComputationOptions &opts, const Nnet &nnet);

// The looped counterpart's compiled computation, made from the options
// without the acoustic scale (it may modify *nnet, see
// decodable-simple-looped.h); give it to NnetSimpleLoopedComputer, which
// threads may share.
std::unique_ptr<DecodableNnetSimpleLoopedInfo> NewLoopedDecodingInfo(
    const NnetSimpleLoopedComputationOptions &opts, Nnet *nnet);

}  // namespace nnet3

#endif  // NNET3_DECODER_DECODABLE_AM_NNET_SIMPLE_H_
