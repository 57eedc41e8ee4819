#include "decoder/decodable-score-matrix.h"

#include "base/error.h"

namespace nnet3 {

DecodableScoreMatrix::DecodableScoreMatrix(const std::string &utterance,
                                           const TransitionModel &trans_model,
                                           const MatrixView &scores)
    : utterance_(utterance),
      id2pdf_(trans_model.TransitionIdToPdfArray().data()),
      num_transition_ids_(trans_model.NumTransitionIds()),
      num_pdfs_(trans_model.NumPdfs()),
      num_frames_(scores.NumRows()) {
  if (scores.NumCols() != num_pdfs_)
    NNET3_ERR << "Utterance '" << utterance << "': the scores have "
              << scores.NumCols() << " columns but the transition model has "
              << num_pdfs_ << " pdfs (do the network and the transition "
              << "model belong together?)";
  scores_ = scores.ToHost();
}

void DecodableScoreMatrix::BadTransitionId(int32_t tid) const {
  NNET3_ERR << "Utterance '" << utterance_ << "': the decoding graph has "
            << "transition-id " << tid << " but the model has only "
            << num_transition_ids_ << " transition-ids (do the graph and the "
            << "model belong together?)";
}

}  // namespace nnet3
