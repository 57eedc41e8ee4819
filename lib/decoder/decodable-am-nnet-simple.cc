#include "decoder/decodable-am-nnet-simple.h"

#include "base/error.h"
#include "base/timer.h"
#include "device/device.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {

DecodableAmNnetSimple::DecodableAmNnetSimple(
    const std::string &utterance, const TransitionModel &trans_model,
    const VectorView &log_priors, float acoustic_scale,
    UtteranceComputer *computer, const MatrixView &features,
    const VectorView *ivector, const MatrixView *online_ivectors,
    int32_t online_ivector_period)
    : utterance_(utterance),
      id2pdf_(trans_model.TransitionIdToPdfArray().data()),
      num_transition_ids_(trans_model.NumTransitionIds()),
      num_pdfs_(trans_model.NumPdfs()) {
  Timer timer;
  Matrix output;
  computer->ComputeUtterance(utterance, features, ivector, online_ivectors,
                             online_ivector_period, &output);
  if (output.NumCols() != num_pdfs_)
    NNET3_ERR << "Utterance '" << utterance << "': the network's output has "
              << "dimension " << output.NumCols() << " but the transition "
              << "model has " << num_pdfs_ << " pdfs (do the network and "
              << "the transition model belong together?)";
  if (log_priors.Dim() != 0) {
    if (log_priors.Dim() != num_pdfs_)
      NNET3_ERR << "The priors have dimension " << log_priors.Dim()
                << " but the model has " << num_pdfs_ << " pdfs";
    output.AddVecToRows(-1.0f, log_priors);
  }
  if (acoustic_scale != 1.0f) output.Scale(acoustic_scale);
  num_frames_ = output.NumRows();
  if (output.device().IsGpu())
    scores_ = Matrix(output, CpuDevice());
  else
    scores_.Swap(&output);
  scores_data_ = scores_.Data();
  scores_stride_ = static_cast<size_t>(scores_.Stride());
  network_seconds_ = timer.Elapsed();
}

void DecodableAmNnetSimple::BadTransitionId(int32_t tid) const {
  NNET3_ERR << "Utterance '" << utterance_ << "': the decoding graph has "
            << "transition-id " << tid << " but the model has only "
            << num_transition_ids_ << " (do the graph and the model belong "
            << "together?)";
}

void ReadAmNnetForDecoding(const std::string &rxfilename,
                           TransitionModel *trans_model,
                           AmNnetSimple *am_nnet) {
  ReadAmNnet(rxfilename, trans_model, am_nnet);
  Nnet &nnet = am_nnet->GetNnet();
  SetBatchnormTestMode(true, &nnet);
  SetDropoutTestMode(true, &nnet);
  CollapseModel(CollapseModelConfig(), &nnet);
  am_nnet->SetContext();
}

Vector LogPriorsOf(const AmNnetSimple &am_nnet) {
  if (am_nnet.Priors().Dim() == 0) return Vector();
  Vector log_priors(am_nnet.Priors(), ActiveDevice());
  log_priors.ApplyFunc(Func::kLog);
  return log_priors;
}

std::unique_ptr<UtteranceComputer> NewDecodingComputer(
    const NnetSimpleComputationOptions &opts, const Nnet &nnet) {
  NnetSimpleComputationOptions unscaled = opts;
  unscaled.acoustic_scale = 1.0f;
  return std::make_unique<NnetSimpleComputer>(unscaled, nnet);
}

std::unique_ptr<DecodableNnetSimpleLoopedInfo> NewLoopedDecodingInfo(
    const NnetSimpleLoopedComputationOptions &opts, Nnet *nnet) {
  NnetSimpleLoopedComputationOptions unscaled = opts;
  unscaled.acoustic_scale = 1.0f;
  return std::make_unique<DecodableNnetSimpleLoopedInfo>(unscaled, nnet);
}

}  // namespace nnet3
