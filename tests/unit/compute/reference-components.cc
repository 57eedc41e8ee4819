#include "reference-components.h"

#include "../nnet/components/naive-attention.h"
#include "base/error.h"
#include "nnet/components/attention-components.h"
#include "nnet/components/general-components.h"
#include "nnet/components/random-mask-components.h"

namespace nnet3 {
namespace {

int32_t FloorDiv(int32_t a, int32_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

bool ReferenceKnowsComponent(const Component &c) {
  return dynamic_cast<const DistributeComponent *>(&c) != nullptr ||
         dynamic_cast<const ConstantComponent *>(&c) != nullptr ||
         dynamic_cast<const DropoutMaskComponent *>(&c) != nullptr ||
         dynamic_cast<const SpecAugmentTimeMaskComponent *>(&c) != nullptr ||
         dynamic_cast<const RestrictedAttentionComponent *>(&c) != nullptr;
}

void ReferenceComponentInputs(const Component &c, const Index &index,
                              std::vector<Index> *inputs,
                              std::vector<bool> *required) {
  inputs->clear();
  required->clear();
  if (const auto *a = dynamic_cast<const RestrictedAttentionComponent *>(&c)) {
    // The whole window; only its required part must be computable.
    for (int32_t k = -a->NumLeftInputs(); k <= a->NumRightInputs(); k++) {
      Index i = index;
      i.t += k * a->TimeStride();
      inputs->push_back(i);
      required->push_back(k >= -a->NumLeftInputsRequired() &&
                          k <= a->NumRightInputsRequired());
    }
    return;
  }
  if (const auto *d = dynamic_cast<const DistributeComponent *>(&c)) {
    Index i = index;
    i.x = FloorDiv(index.x, d->InputDim() / d->OutputDim());
    inputs->push_back(i);
    required->push_back(true);
    return;
  }
  if (dynamic_cast<const SpecAugmentTimeMaskComponent *>(&c) != nullptr) {
    inputs->push_back(index);
    required->push_back(true);
  }
  // Constant and DropoutMask read nothing.
}

std::vector<float> ReferenceComponentRow(
    const Component &c, const Index &index,
    const std::vector<const std::vector<float> *> &rows) {
  if (const auto *a = dynamic_cast<const RestrictedAttentionComponent *>(&c))
    return naive_attention::OutputRow(naive_attention::FromComponent(*a), rows);
  if (const auto *d = dynamic_cast<const DistributeComponent *>(&c)) {
    const int32_t k = d->InputDim() / d->OutputDim(), dim = d->OutputDim();
    const int32_t block = index.x - FloorDiv(index.x, k) * k;
    NNET3_ASSERT(rows.size() == 1 && rows[0] != nullptr);
    return std::vector<float>(rows[0]->begin() + block * dim,
                              rows[0]->begin() + (block + 1) * dim);
  }
  if (const auto *k = dynamic_cast<const ConstantComponent *>(&c))
    return k->Output().ToHost();
  if (const auto *m = dynamic_cast<const DropoutMaskComponent *>(&c)) {
    // Test mode only (the evaluator checks).
    const float p = m->DropoutProportion();
    return std::vector<float>(m->OutputDim(),
                              m->Continuous() || p == 0.0f ? 1.0f : 1.0f - p);
  }
  if (dynamic_cast<const SpecAugmentTimeMaskComponent *>(&c) != nullptr) {
    NNET3_ASSERT(rows.size() == 1 && rows[0] != nullptr);
    return *rows[0];
  }
  NNET3_INTERNAL_ERR << "ReferenceComponentRow: unknown " << c.Type();
  return {};
}

}  // namespace nnet3
