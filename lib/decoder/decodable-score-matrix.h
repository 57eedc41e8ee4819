// DecodableScoreMatrix: acoustic scores computed beforehand, one row per
// (subsampled) frame and one column per pdf, already scaled (log-priors
// subtracted, times the acoustic scale), looked up by transition-id through
// the transition model (Kaldi's DecodableMatrixMapped for a whole
// utterance). The batched decoder gets such matrices from
// NnetBatchInference, whose arithmetic is DecodableAmNnetSimple's (first
// the subtraction, then the scaling, each in float), so both give the
// decoder the same numbers for the same network output.
//
//   Matrix scores = ...;  // frames x pdfs, scaled
//   DecodableScoreMatrix decodable(utt, trans_model, scores);
//   decoder.Decode(&decodable);
//
// The scores are copied into host memory when the decodable is made; the
// matrix may then go. UserError (naming the utterance) if the matrix does
// not have one column per pdf of the transition model, or if the decoder
// asks for a transition-id the model does not have.
#ifndef NNET3_DECODER_DECODABLE_SCORE_MATRIX_H_
#define NNET3_DECODER_DECODABLE_SCORE_MATRIX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "decoder/decodable-itf.h"
#include "hmm/transition-model.h"
#include "matrix/matrix.h"

namespace nnet3 {

class DecodableScoreMatrix final : public DecodableInterface {
 public:
  DecodableScoreMatrix(const std::string &utterance,
                       const TransitionModel &trans_model,
                       const MatrixView &scores);

  float LogLikelihood(int32_t frame, int32_t tid) override {
    if (static_cast<uint32_t>(tid) - 1u >=
        static_cast<uint32_t>(num_transition_ids_))
      BadTransitionId(tid);
    return scores_[static_cast<size_t>(frame) * num_pdfs_ + id2pdf_[tid]];
  }
  bool IsLastFrame(int32_t frame) const override {
    return frame == num_frames_ - 1;
  }
  int32_t NumFramesReady() const override { return num_frames_; }
  int32_t NumIndices() const override { return num_transition_ids_; }

 private:
  void BadTransitionId(int32_t tid) const;

  std::string utterance_;
  const int32_t *id2pdf_;
  int32_t num_transition_ids_, num_pdfs_, num_frames_;
  std::vector<float> scores_;  // num_frames_ x num_pdfs_, row-major
};

}  // namespace nnet3

#endif  // NNET3_DECODER_DECODABLE_SCORE_MATRIX_H_
