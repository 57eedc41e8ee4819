#include "nnet/component-itf.h"

#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-registry.h"
#include "nnet/components/attention-components.h"
#include "nnet/components/backprop-truncation-component.h"
#include "nnet/components/convolution-components.h"
#include "nnet/components/dropout-components.h"
#include "nnet/components/general-components.h"
#include "nnet/components/pooling-components.h"
#include "nnet/components/random-mask-components.h"
#include "nnet/components/tdnn-components.h"

namespace nnet3 {

void Component::DeleteMemo(void *memo) const { NNET3_ASSERT(memo == nullptr); }

void *Component::PropagateFused(int32_t fusion,
                                const ComponentPrecomputedIndexes *,
                                const MatrixView &, MatrixView *) const {
  NNET3_INTERNAL_ERR << Type() << " has no fused Propagate (fusion " << fusion
                     << ")";
  return nullptr;  // not reached
}

void Component::GetInputIndexes(const MiscComputationInfo &,
                                const Index &output_index,
                                std::vector<Index> *desired_indexes) const {
  desired_indexes->assign(1, output_index);
}

bool Component::IsComputable(const MiscComputationInfo &,
                             const Index &output_index,
                             const IndexSet &input_index_set,
                             std::vector<Index> *used_inputs) const {
  bool ans = input_index_set(output_index);
  if (used_inputs != nullptr) {
    used_inputs->clear();
    if (ans) used_inputs->push_back(output_index);
  }
  return ans;
}

std::unique_ptr<ComponentPrecomputedIndexes> Component::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &,
    const std::vector<Index> &, bool) const {
  return nullptr;
}

std::string Component::Info() const {
  std::ostringstream os;
  os << Type() << ", input-dim=" << InputDim()
     << ", output-dim=" << OutputDim();
  return os.str();
}

std::unique_ptr<Component> Component::ReadNew(std::istream &is, bool binary) {
  std::string token;
  ReadToken(is, binary, &token);
  if (token.size() < 3 || token.front() != '<' || token.back() != '>')
    NNET3_ERR << "Expected a component type token like <AffineComponent> "
              << "but found '" << token << "'";
  std::string type = token.substr(1, token.size() - 2);
  std::unique_ptr<Component> c = NewComponentOfType(type);
  if (!c)
    NNET3_ERR << "Unknown component type " << token
              << " (this toolkit does not implement it)";
  // The opening tag is consumed; every Read() accepts that (as in Kaldi).
  c->Read(is, binary);
  return c;
}

std::unique_ptr<ComponentPrecomputedIndexes>
ComponentPrecomputedIndexes::NewOfType(const std::string &type) {
  if (type == "GeneralDropoutComponentPrecomputedIndexes")
    return std::make_unique<GeneralDropoutComponentPrecomputedIndexes>();
  if (type == "TdnnComponentPrecomputedIndexes")
    return std::make_unique<TdnnComponentPrecomputedIndexes>();
  if (type == "TimeHeightConvolutionComponentPrecomputedIndexes")
    return std::make_unique<TimeHeightConvolutionComponentPrecomputedIndexes>();
  if (type == "StatisticsExtractionComponentPrecomputedIndexes")
    return std::make_unique<StatisticsExtractionComponentPrecomputedIndexes>();
  if (type == "StatisticsPoolingComponentPrecomputedIndexes")
    return std::make_unique<StatisticsPoolingComponentPrecomputedIndexes>();
  if (type == "DistributeComponentPrecomputedIndexes")
    return std::make_unique<DistributeComponentPrecomputedIndexes>();
  if (type == "SpecAugmentTimeMaskComponentPrecomputedIndexes")
    return std::make_unique<SpecAugmentTimeMaskComponentPrecomputedIndexes>();
  if (type == "RestrictedAttentionComponentPrecomputedIndexes")
    return std::make_unique<RestrictedAttentionComponentPrecomputedIndexes>();
  if (type == "BackpropTruncationComponentPrecomputedIndexes")
    return std::make_unique<BackpropTruncationComponentPrecomputedIndexes>();
  return nullptr;
}

std::unique_ptr<ComponentPrecomputedIndexes>
ComponentPrecomputedIndexes::ReadNew(std::istream &is, bool binary) {
  std::string token;
  ReadToken(is, binary, &token);
  std::string type = token.size() > 2 ? token.substr(1, token.size() - 2) : "";
  std::unique_ptr<ComponentPrecomputedIndexes> p = NewOfType(type);
  if (!p) NNET3_ERR << "Unknown precomputed-indexes type " << token;
  p->Read(is, binary);
  return p;
}

void ExpectOneOrTwoTokens(std::istream &is, bool binary,
                          const std::string &token1,
                          const std::string &token2) {
  std::string token;
  ReadToken(is, binary, &token);
  if (token == token1 || token == token1.substr(1)) {
    ExpectToken(is, binary, token2);
  } else if (token != token2) {
    NNET3_ERR << "Expected token " << token1 << " or " << token2
              << " but found " << token;
  }
}

bool StatsGenerator::OneIn(int32_t n) {
  NNET3_ASSERT(n > 0);
  // A splitmix64 step, as RandomComponent::NextSeed.
  state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z % static_cast<uint64_t>(n) == 0;
}

uint64_t RandomComponent::NextSeed() const {
  // splitmix64 step: consecutive calls give well-separated seeds.
  seed_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = seed_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool UpdatableComponent::ParamsAreFinite() const {
  return std::isfinite(DotProduct(*this));
}

std::string UpdatableComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", input-dim=" << InputDim() << ", output-dim=" << OutputDim()
     << ", learning-rate=" << LearningRate();
  if (is_gradient_) os << ", is-gradient=true";
  if (l2_regularize_ != 0.0f) os << ", l2-regularize=" << l2_regularize_;
  if (learning_rate_factor_ != 1.0f)
    os << ", learning-rate-factor=" << learning_rate_factor_;
  if (max_change_ > 0.0f) os << ", max-change=" << max_change_;
  return os.str();
}

void UpdatableComponent::InitLearningRatesFromConfig(ConfigLine *cfl) {
  learning_rate_ = 0.001f;
  cfl->GetValue("learning-rate", &learning_rate_);
  learning_rate_factor_ = 1.0f;
  cfl->GetValue("learning-rate-factor", &learning_rate_factor_);
  max_change_ = 0.0f;
  cfl->GetValue("max-change", &max_change_);
  l2_regularize_ = 0.0f;
  cfl->GetValue("l2-regularize", &l2_regularize_);
  if (learning_rate_ < 0.0f || learning_rate_factor_ < 0.0f ||
      max_change_ < 0.0f || l2_regularize_ < 0.0f)
    NNET3_ERR << "learning-rate, learning-rate-factor, max-change and "
              << "l2-regularize must be >= 0 in '" << cfl->WholeLine() << "'";
}

void UpdatableComponent::WriteUpdatableCommon(std::ostream &os,
                                              bool binary) const {
  WriteToken(os, binary, "<" + Type() + ">");
  if (learning_rate_factor_ != 1.0f) {
    WriteToken(os, binary, "<LearningRateFactor>");
    WriteBasicType(os, binary, learning_rate_factor_);
  }
  if (is_gradient_) {
    WriteToken(os, binary, "<IsGradient>");
    WriteBasicType(os, binary, is_gradient_);
  }
  if (max_change_ > 0.0f) {
    WriteToken(os, binary, "<MaxChange>");
    WriteBasicType(os, binary, max_change_);
  }
  if (l2_regularize_ > 0.0f) {
    WriteToken(os, binary, "<L2Regularize>");
    WriteBasicType(os, binary, l2_regularize_);
  }
  WriteToken(os, binary, "<LearningRate>");
  WriteBasicType(os, binary, learning_rate_);
}

std::string UpdatableComponent::ReadUpdatableCommon(std::istream &is,
                                                    bool binary) {
  std::string opening = "<" + Type() + ">";
  std::string token;
  ReadToken(is, binary, &token);
  if (token == opening || token == opening.substr(1))
    ReadToken(is, binary, &token);
  learning_rate_factor_ = 1.0f;
  is_gradient_ = false;
  max_change_ = 0.0f;
  l2_regularize_ = 0.0f;
  if (token == "<LearningRateFactor>") {
    ReadBasicType(is, binary, &learning_rate_factor_);
    ReadToken(is, binary, &token);
  }
  if (token == "<IsGradient>") {
    ReadBasicType(is, binary, &is_gradient_);
    ReadToken(is, binary, &token);
  }
  if (token == "<MaxChange>") {
    ReadBasicType(is, binary, &max_change_);
    ReadToken(is, binary, &token);
  }
  if (token == "<L2Regularize>") {
    ReadBasicType(is, binary, &l2_regularize_);
    ReadToken(is, binary, &token);
  }
  if (token == "<LearningRate>") {
    ReadBasicType(is, binary, &learning_rate_);
    return "";
  }
  return token;
}

void UpdatableComponent::CopyUpdatableCommon(const UpdatableComponent &other) {
  learning_rate_ = other.learning_rate_;
  learning_rate_factor_ = other.learning_rate_factor_;
  l2_regularize_ = other.l2_regularize_;
  is_gradient_ = other.is_gradient_;
  max_change_ = other.max_change_;
}

}  // namespace nnet3
