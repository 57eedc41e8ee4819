#include "compute/am-nnet-simple.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "compile/nnet-context.h"
#include "device/device.h"
#include "device/host-blas.h"
#include "util/kaldi-io.h"

namespace nnet3 {

AmNnetSimple::AmNnetSimple() : priors_(CpuDevice()) {}

AmNnetSimple::AmNnetSimple(const Nnet &nnet)
    : nnet_(nnet), priors_(CpuDevice()) {
  SetContext();
}

void AmNnetSimple::Read(std::istream &is, bool binary) {
  nnet_.Read(is, binary);
  ExpectToken(is, binary, "<LeftContext>");
  ReadBasicType(is, binary, &left_context_);
  ExpectToken(is, binary, "<RightContext>");
  ReadBasicType(is, binary, &right_context_);
  SetContext();  // as Kaldi: the written context is not trusted
  ExpectToken(is, binary, "<Priors>");
  priors_.Read(is, binary);
  if (priors_.Dim() != 0 && priors_.Dim() != nnet_.OutputDim("output"))
    NNET3_ERR << "The acoustic model's <Priors> have dimension "
              << priors_.Dim() << " but its network's output has dimension "
              << nnet_.OutputDim("output");
}

void AmNnetSimple::Write(std::ostream &os, bool binary) const {
  nnet_.Write(os, binary);
  WriteToken(os, binary, "<LeftContext>");
  WriteBasicType(os, binary, left_context_);
  WriteToken(os, binary, "<RightContext>");
  WriteBasicType(os, binary, right_context_);
  WriteToken(os, binary, "<Priors>");
  priors_.Write(os, binary);
}

void AmNnetSimple::SetNnet(const Nnet &nnet) {
  nnet_ = nnet;
  SetContext();
  if (priors_.Dim() != 0 && priors_.Dim() != nnet_.OutputDim("output")) {
    NNET3_WARN << "Removing priors since there is a dimension mismatch after "
               << "changing the nnet: " << priors_.Dim() << " vs. "
               << nnet_.OutputDim("output");
    priors_.Resize(0);
  }
}

void AmNnetSimple::SetContext() {
  if (!IsSimpleNnet(nnet_))
    NNET3_ERR << "An acoustic model needs a simple network (an 'input' node, "
              << "an 'output' node, optionally an 'ivector' node, and a "
              << "finite context); this one is not";
  ComputeSimpleNnetContext(nnet_, &left_context_, &right_context_);
}

void AmNnetSimple::SetPriors(const VectorView &priors) {
  if (priors.Dim() != 0 && priors.Dim() != nnet_.OutputDim("output"))
    NNET3_ERR << "Dimension mismatch when setting priors: priors have dim "
              << priors.Dim() << ", model expects "
              << nnet_.OutputDim("output");
  priors_ = Vector(priors, CpuDevice());
}

int32_t AmNnetSimple::NumPdfs() const { return nnet_.OutputDim("output"); }

std::string AmNnetSimple::Info() const {
  std::ostringstream os;
  os << "input-dim: " << nnet_.InputDim("input") << "\n"
     << "ivector-dim: " << nnet_.InputDim("ivector") << "\n"
     << "num-pdfs: " << nnet_.OutputDim("output") << "\n"
     << "prior-dimension: " << priors_.Dim() << "\n";
  if (priors_.Dim() != 0)
    os << "prior-sum: " << static_cast<float>(priors_.Sum()) << "\n"
       << "prior-min: " << priors_.Min() << "\n"
       << "prior-max: " << priors_.Max() << "\n";
  // Kaldi's Nnet::Info starts with the context of a simple nnet.
  os << "# Nnet info follows.\n"
     << "left-context: " << left_context_ << "\n"
     << "right-context: " << right_context_ << "\n";
  return os.str() + nnet_.Info();
}

bool IsAcousticModel(std::istream &is, bool binary) {
  // As Kaldi's Nnet::Read: the first letter of the token after '<'.
  return PeekToken(is, binary) == 'T';
}

namespace {

// Runs read(stream, binary) on the opened file, naming it in errors.
template <class ReadFn>
void ReadFrom(const std::string &rxfilename, ReadFn read) {
  bool binary = false;
  Input ki(rxfilename, &binary);
  try {
    read(ki.Stream(), binary);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Reading '" + PrintableRxfilename(rxfilename) + "'");
  }
  ki.Close();
}

}  // namespace

void ReadAmNnet(const std::string &rxfilename, TransitionModel *trans_model,
                AmNnetSimple *am_nnet) {
  ReadFrom(rxfilename, [&](std::istream &is, bool binary) {
    if (!IsAcousticModel(is, binary))
      NNET3_ERR << "this is not an acoustic model (.mdl: it does not start "
                << "with <TransitionModel>); a raw network becomes one with "
                << "nnet3-am-init <trans-model-in> <raw-nnet-in> <am-out>";
    trans_model->Read(is, binary);
    am_nnet->Read(is, binary);
  });
}

void WriteAmNnet(const TransitionModel &trans_model,
                 const AmNnetSimple &am_nnet, const std::string &wxfilename,
                 bool binary) {
  Output ko(wxfilename, binary, true, /*atomic=*/true);
  try {
    trans_model.Write(ko.Stream(), binary);
    am_nnet.Write(ko.Stream(), binary);
  } catch (const UserError &e) {
    RethrowWithContext(e, "Writing '" + PrintableWxfilename(wxfilename) + "'");
  }
  ko.Close();
}

void ReadTransitionModel(const std::string &rxfilename,
                         TransitionModel *trans_model) {
  ReadFrom(rxfilename, [&](std::istream &is, bool binary) {
    if (!IsAcousticModel(is, binary))
      NNET3_ERR << "expected a transition model, or a Kaldi model file that "
                << "starts with one (e.g. a GMM or nnet3 final.mdl), but it "
                << "does not start with <TransitionModel>";
    trans_model->Read(is, binary);
  });
}

void ReadNnetFromRawOrAm(const std::string &rxfilename, Nnet *nnet) {
  ReadFrom(rxfilename, [&](std::istream &is, bool binary) {
    if (!IsAcousticModel(is, binary)) {
      nnet->Read(is, binary);
      return;
    }
    TransitionModel trans_model;
    trans_model.Read(is, binary);
    AmNnetSimple am_nnet;
    am_nnet.Read(is, binary);
    am_nnet.GetNnet().Swap(nnet);
  });
}

void ReadNnetAndLogPriors(const std::string &rxfilename, bool use_priors,
                          Nnet *nnet, Vector *log_priors) {
  log_priors->Resize(0);
  if (!use_priors) {
    ReadNnetFromRawOrAm(rxfilename, nnet);
    return;
  }
  TransitionModel trans_model;
  AmNnetSimple am_nnet;
  ReadFrom(rxfilename, [&](std::istream &is, bool binary) {
    if (!IsAcousticModel(is, binary))
      NNET3_ERR << "--use-priors needs an acoustic model (.mdl) with priors, "
                << "but this is a raw network; give the .mdl, or leave "
                << "--use-priors off";
    trans_model.Read(is, binary);
    am_nnet.Read(is, binary);
  });
  am_nnet.GetNnet().Swap(nnet);
  if (am_nnet.Priors().Dim() == 0) {
    NNET3_WARN << "--use-priors: the model '" << PrintableRxfilename(rxfilename)
               << "' has no priors; the "
               << "outputs are left as they are (set them with "
               << "nnet3-am-adjust-priors)";
    return;
  }
  *log_priors = Vector(am_nnet.Priors(), ActiveDevice());
  log_priors->ApplyFunc(Func::kLog);
}

namespace {

// A vector's sum as Kaldi's VectorBase::Sum() forms it (device/host-blas).
float Sum(const std::vector<float> &v) {
  return HostSum(static_cast<int32_t>(v.size()), v.data());
}

// Kaldi's one-sided K-L divergence from p to q (each normalized), with
// Kaldi's float arithmetic.
double KlDivergence(const std::vector<float> &p, const std::vector<float> &q) {
  const float sum_p = Sum(p), sum_q = Sum(q);
  if (std::fabs(sum_p - 1.0) > 0.01 || std::fabs(sum_q - 1.0) > 0.01)
    NNET3_WARN << "KlDivergence: vectors are not close to being normalized "
               << sum_p << ", " << sum_q;
  double ans = 0.0;
  for (size_t i = 0; i < p.size(); i++) {
    const float p_prob = p[i] / sum_p, q_prob = q[i] / sum_q;
    ans += p_prob * std::log(p_prob / q_prob);
  }
  return ans;
}

}  // namespace

void AdjustPriors(const VectorView &posterior_sum, AmNnetSimple *am_nnet) {
  std::vector<float> new_priors = posterior_sum.ToHost();
  const float sum = Sum(new_priors);
  if (!(sum > 0.0f))
    NNET3_ERR << "The summed posteriors add up to " << sum
              << "; they must be positive";
  if (static_cast<int32_t>(new_priors.size()) != am_nnet->NumPdfs())
    NNET3_ERR << "The summed posteriors have dimension " << new_priors.size()
              << " but the model has " << am_nnet->NumPdfs() << " pdfs";
  // Kaldi's Scale(1.0 / Sum()): a float factor.
  const float scale = static_cast<float>(1.0 / sum);
  for (float &v : new_priors) v *= scale;
  const std::vector<float> old_priors = am_nnet->Priors().ToHost();
  if (old_priors.empty()) {
    NNET3_LOG << "Model did not previously have priors attached.";
  } else {
    size_t max_index = 0;
    for (size_t i = 0; i < new_priors.size(); i++)
      if (std::fabs(new_priors[i] - old_priors[i]) >
          std::fabs(new_priors[max_index] - old_priors[max_index]))
        max_index = i;
    NNET3_LOG << "Adjusting priors: largest absolute difference was for "
              << "pdf " << max_index << ", " << old_priors[max_index] << " -> "
              << new_priors[max_index];
    NNET3_LOG << "Adjusting priors: K-L divergence from old to new is "
              << static_cast<float>(KlDivergence(old_priors, new_priors));
  }
  am_nnet->SetPriors(Vector(new_priors, CpuDevice()));
}

void SubtractLogPriors(const VectorView &log_priors, float acoustic_scale,
                       MatrixView *output) {
  if (log_priors.Dim() == 0) return;
  if (log_priors.Dim() != output->NumCols())
    NNET3_ERR << "The priors have dimension " << log_priors.Dim()
              << " but the network's output has " << output->NumCols()
              << " columns";
  output->AddVecToRows(-acoustic_scale, log_priors);
}

}  // namespace nnet3
