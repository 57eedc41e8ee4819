#include "nnet/components/composite-components.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/simple-component-utils.h"

namespace nnet3 {

std::unique_ptr<Component> NewCompositeComponentOfType(
    const std::string &type) {
  if (type == "CompositeComponent")
    return std::make_unique<CompositeComponent>();
  return nullptr;
}

std::vector<std::string> CompositeComponentTypes() {
  return {"CompositeComponent"};
}

CompositeComponent::CompositeComponent(
    std::vector<std::unique_ptr<Component>> components,
    int32_t max_rows_process) {
  Init(std::move(components), max_rows_process, "CompositeComponent");
}

void CompositeComponent::Init(
    std::vector<std::unique_ptr<Component>> components,
    int32_t max_rows_process, const std::string &what) {
  if (components.empty())
    NNET3_ERR << what << ": a CompositeComponent needs at least one component";
  if (max_rows_process < 0)
    NNET3_ERR << what << ": max-rows-process=" << max_rows_process
              << " must be >= 0";
  for (size_t i = 0; i < components.size(); i++) {
    const Component &c = *components[i];
    const int32_t props = c.Properties();
    if (c.Type() == "CompositeComponent" || !(props & kSimpleComponent) ||
        (props & kRandomComponent))
      NNET3_ERR << what << ": component" << i + 1 << " is a " << c.Type()
                << ", which a CompositeComponent cannot hold (only simple, "
                << "non-random, non-composite components)";
    if (i > 0 && c.InputDim() != components[i - 1]->OutputDim())
      NNET3_ERR << what << ": component" << i + 1 << " has input dim "
                << c.InputDim() << " but component" << i << " has output dim "
                << components[i - 1]->OutputDim();
  }
  components_ = std::move(components);
  max_rows_process_ = max_rows_process;
}

int32_t CompositeComponent::InputDim() const {
  NNET3_ASSERT(!components_.empty());
  return components_.front()->InputDim();
}

int32_t CompositeComponent::OutputDim() const {
  NNET3_ASSERT(!components_.empty());
  return components_.back()->OutputDim();
}

bool CompositeComponent::IsUpdatable() const {
  for (const auto &c : components_)
    if (c->Properties() & kUpdatableComponent) return true;
  return false;
}

int32_t CompositeComponent::Properties() const {
  NNET3_ASSERT(!components_.empty());
  const int32_t last = components_.back()->Properties(),
                first = components_.front()->Properties();
  // Backprop recomputes the intermediate values from the input.
  int32_t ans =
      kSimpleComponent | kBackpropNeedsInput |
      (last & (kPropagateAdds | kBackpropNeedsOutput | kOutputContiguous)) |
      (first & (kBackpropAdds | kInputContiguous)) |
      (IsUpdatable() ? kUpdatableComponent : 0);
  // Stats are stored during Backprop, which then needs the last output.
  if (last & kStoresStats) ans |= kBackpropNeedsOutput;
  return ans;
}

void CompositeComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  int32_t max_rows_process = 4096;
  cfl->GetValue("max-rows-process", &max_rows_process);
  int32_t num_components = GetPositiveInt(cfl, type, "num-components");
  std::vector<std::unique_ptr<Component>> components;
  for (int32_t i = 1; i <= num_components; i++) {
    const std::string key = "component" + std::to_string(i);
    std::string nested_config;
    if (!cfl->GetValue(key, &nested_config))
      ThrowConfigError(*cfl, type, "missing required key " + key + "=");
    ConfigLine nested;
    std::string nested_type;
    if (!nested.ParseLine(nested_config) || !nested.FirstToken().empty() ||
        !nested.GetValue("type", &nested_type))
      ThrowConfigError(*cfl, type,
                       key + "='" + nested_config +
                           "' is not a component config of the form "
                           "'type=<ComponentType> key=value ...'");
    std::unique_ptr<Component> c = Component::NewComponentOfType(nested_type);
    if (!c)
      ThrowConfigError(
          *cfl, type,
          key + " has unknown component type '" + nested_type + "'");
    if (nested_type == type)
      ThrowConfigError(*cfl, type,
                       key +
                           " is a CompositeComponent; nesting is not "
                           "allowed (lower max-rows-process instead)");
    try {
      c->InitFromConfig(&nested);
    } catch (const UserError &e) {  // say which composite and which key
      ThrowConfigError(*cfl, type, key + ": " + e.what());
    }
    if (nested.HasUnusedValues())
      ThrowConfigError(
          *cfl, type,
          key + " has unused values '" + nested.UnusedValues() + "'");
    components.push_back(std::move(c));
  }
  Init(std::move(components), max_rows_process,
       type + " (config line '" + cfl->WholeLine() + "')");
}

std::unique_ptr<Component> CompositeComponent::Copy() const {
  auto ans = std::make_unique<CompositeComponent>();
  ans->CopyUpdatableCommon(*this);
  for (const auto &c : components_) ans->components_.push_back(c->Copy());
  ans->max_rows_process_ = max_rows_process_;
  return ans;
}

void CompositeComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<MaxRowsProcess>");
  int32_t max_rows_process = 0, num_components = 0;
  ReadBasicType(is, binary, &max_rows_process);
  ExpectToken(is, binary, "<NumComponents>");
  ReadBasicType(is, binary, &num_components);
  if (num_components < 1 || num_components > 100000)
    NNET3_ERR << "Reading <CompositeComponent>: bad <NumComponents> "
              << num_components;
  std::vector<std::unique_ptr<Component>> components;
  for (int32_t i = 0; i < num_components; i++)
    components.push_back(Component::ReadNew(is, binary));
  ExpectToken(is, binary, "</CompositeComponent>");
  Init(std::move(components), max_rows_process, "Reading <CompositeComponent>");
}

void CompositeComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<MaxRowsProcess>");
  WriteBasicType(os, binary, max_rows_process_);
  WriteToken(os, binary, "<NumComponents>");
  WriteBasicType(os, binary, NumComponents());
  for (const auto &c : components_) c->Write(os, binary);
  WriteToken(os, binary, "</CompositeComponent>");
}

std::string CompositeComponent::Info() const {
  std::ostringstream os;
  os << Type() << " ";
  for (size_t i = 0; i < components_.size(); i++)
    os << (i > 0 ? ", " : "") << "sub-component" << i + 1 << " = { "
       << components_[i]->Info() << " }";
  return os.str();
}

MatrixStrideType CompositeComponent::StrideType(int32_t i) const {
  const bool contiguous =
      (components_[i]->Properties() & kOutputContiguous) ||
      (i + 1 < NumComponents() &&
       (components_[i + 1]->Properties() & kInputContiguous));
  return contiguous ? MatrixStrideType::kStrideEqualNumCols
                    : MatrixStrideType::kDefaultStride;
}

void *CompositeComponent::Propagate(const ComponentPrecomputedIndexes *,
                                    const MatrixView &in,
                                    MatrixView *out) const {
  NNET3_ASSERT(in.NumRows() == out->NumRows() && in.NumCols() == InputDim() &&
               out->NumCols() == OutputDim());
  const int32_t rows = in.NumRows();
  const int32_t chunk = max_rows_process_ > 0 ? max_rows_process_ : rows;
  for (int32_t r = 0; r < rows; r += chunk) {
    const int32_t n = std::min(chunk, rows - r);
    MatrixView out_part = out->RowRange(r, n);
    PropagateChunk(in.RowRange(r, n), &out_part);
  }
  return nullptr;
}

void CompositeComponent::PropagateChunk(const MatrixView &in,
                                        MatrixView *out) const {
  const int32_t num = NumComponents(), rows = in.NumRows();
  Matrix prev(in.device()), next(in.device());
  for (int32_t i = 0; i < num; i++) {
    const Component &c = *components_[i];
    const MatrixView &this_in = i == 0 ? in : prev;
    if (i + 1 == num) {
      c.DeleteMemo(c.Propagate(nullptr, this_in, out));
      break;
    }
    // Zeroed for components that add to their output.
    next.Resize(rows, c.OutputDim(),
                (c.Properties() & kPropagateAdds) ? ResizeType::kSetZero
                                                  : ResizeType::kUndefined,
                StrideType(i));
    // The memos are regenerated in Backprop.
    c.DeleteMemo(c.Propagate(nullptr, this_in, &next));
    prev.Swap(&next);
  }
}

int32_t CompositeComponent::NumToRepropagate() const {
  const int32_t num = NumComponents();
  // The last output is given (out_value) unless the last one needs a memo.
  if (components_[num - 1]->Properties() & kUsesMemo) return num;
  if (num == 1) return 0;
  // The last-but-one output is needed only as the last one's input, or for
  // its own backprop (output or memo).
  const int32_t props = components_[num - 2]->Properties(),
                next_props = components_[num - 1]->Properties();
  if (!(props & (kBackpropNeedsOutput | kUsesMemo)) &&
      !(next_props & kBackpropNeedsInput))
    return num - 2;
  return num - 1;
}

void CompositeComponent::Backprop(const std::string &debug_info,
                                  const ComponentPrecomputedIndexes *,
                                  const MatrixView &in_value,
                                  const MatrixView &out_value,
                                  const MatrixView &out_deriv, void *memo,
                                  Component *to_update_in,
                                  MatrixView *in_deriv) const {
  NNET3_ASSERT(memo == nullptr && in_value.NumRows() == out_deriv.NumRows() &&
               in_value.NumCols() == InputDim() &&
               out_deriv.NumCols() == OutputDim());
  auto *to_update = dynamic_cast<CompositeComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  const int32_t rows = in_value.NumRows();
  const int32_t chunk = max_rows_process_ > 0 ? max_rows_process_ : rows;
  const bool have_out_value = out_value.NumRows() != 0;
  for (int32_t r = 0; r < rows; r += chunk) {
    const int32_t n = std::min(chunk, rows - r);
    MatrixView in_deriv_part =
        in_deriv != nullptr ? in_deriv->RowRange(r, n) : MatrixView();
    BackpropChunk(debug_info, in_value.RowRange(r, n),
                  have_out_value ? out_value.RowRange(r, n) : MatrixView(),
                  out_deriv.RowRange(r, n), to_update,
                  in_deriv != nullptr ? &in_deriv_part : nullptr);
  }
}

void CompositeComponent::BackpropChunk(const std::string &debug_info,
                                       const MatrixView &in_value,
                                       const MatrixView &out_value,
                                       const MatrixView &out_deriv,
                                       CompositeComponent *to_update,
                                       MatrixView *in_deriv) const {
  const int32_t num = NumComponents(), rows = in_value.NumRows();
  // outputs[i]: the output of sub-component i (the last one's is out_value
  // unless it is recomputed for its memo); derivs[i]: the derivative there.
  std::vector<Matrix> outputs, derivs;
  for (int32_t i = 0; i < num; i++) {
    outputs.emplace_back(in_value.device());
    derivs.emplace_back(in_value.device());
  }
  std::vector<void *> memos(num, nullptr);
  const int32_t num_propagate = NumToRepropagate();
  for (int32_t i = 0; i < num_propagate; i++) {
    const Component &c = *components_[i];
    outputs[i].Resize(rows, c.OutputDim(),
                      (c.Properties() & kPropagateAdds)
                          ? ResizeType::kSetZero
                          : ResizeType::kUndefined,
                      StrideType(i));
    memos[i] =
        c.Propagate(nullptr, i == 0 ? in_value : outputs[i - 1], &outputs[i]);
  }
  for (int32_t i = num - 1; i >= 0; i--) {
    const Component &c = *components_[i];
    const MatrixView &this_in = i == 0 ? in_value : outputs[i - 1];
    const MatrixView &this_out =
        (i + 1 == num && num_propagate < num) ? out_value : outputs[i];
    Component *sub_update =
        to_update != nullptr ? to_update->components_[i].get() : nullptr;
    if (sub_update != nullptr && (c.Properties() & kStoresStats))
      sub_update->StoreStats(this_in, this_out, memos[i]);
    MatrixView *this_in_deriv = in_deriv;
    if (i > 0) {
      derivs[i - 1].Resize(rows, c.InputDim(),
                           (c.Properties() & kBackpropAdds)
                               ? ResizeType::kSetZero
                               : ResizeType::kUndefined,
                           StrideType(i - 1));
      this_in_deriv = &derivs[i - 1];
    }
    // The first sub-component's backprop is needed only for in_deriv or
    // its own update.
    const bool skip =
        i == 0 && in_deriv == nullptr &&
        !(sub_update != nullptr && (c.Properties() & kUpdatableComponent));
    if (!skip)
      c.Backprop(debug_info, nullptr, this_in, this_out,
                 i + 1 == num ? out_deriv : derivs[i], memos[i], sub_update,
                 this_in_deriv);
    c.DeleteMemo(memos[i]);
    if (i + 1 < num) derivs[i].Resize(0, 0);
  }
}

void CompositeComponent::ZeroStats() {
  for (auto &c : components_) c->ZeroStats();
}

std::vector<UpdatableComponent *> CompositeComponent::Updatable() const {
  std::vector<UpdatableComponent *> ans;
  for (const auto &c : components_)
    if (c->Properties() & kUpdatableComponent) {
      auto *u = dynamic_cast<UpdatableComponent *>(c.get());
      NNET3_ASSERT(u != nullptr);
      ans.push_back(u);
    }
  return ans;
}

void CompositeComponent::Scale(float scale) {
  for (auto &c : components_) c->Scale(scale);
}

void CompositeComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const CompositeComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr &&
               other->components_.size() == components_.size());
  for (size_t i = 0; i < components_.size(); i++)
    components_[i]->Add(alpha, *other->components_[i]);
}

float CompositeComponent::DotProduct(const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const CompositeComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr &&
               other->components_.size() == components_.size());
  std::vector<UpdatableComponent *> mine = Updatable(),
                                    theirs = other->Updatable();
  NNET3_ASSERT(mine.size() == theirs.size());
  double ans = 0.0;
  for (size_t i = 0; i < mine.size(); i++)
    ans += mine[i]->DotProduct(*theirs[i]);
  return static_cast<float>(ans);
}

void CompositeComponent::PerturbParams(float stddev, uint64_t seed) {
  uint64_t k = 0;
  for (UpdatableComponent *u : Updatable())
    u->PerturbParams(stddev, seed + 0x9E3779B97F4A7C15ull * ++k);
}

int32_t CompositeComponent::NumParameters() const {
  int32_t ans = 0;
  for (UpdatableComponent *u : Updatable()) ans += u->NumParameters();
  return ans;
}

void CompositeComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  int32_t offset = 0;
  for (UpdatableComponent *u : Updatable()) {
    VectorView part = params->Range(offset, u->NumParameters());
    u->Vectorize(&part);
    offset += u->NumParameters();
  }
}

void CompositeComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  int32_t offset = 0;
  for (UpdatableComponent *u : Updatable()) {
    u->UnVectorize(params.Range(offset, u->NumParameters()));
    offset += u->NumParameters();
  }
}

void CompositeComponent::FreezeNaturalGradient(bool freeze) {
  for (UpdatableComponent *u : Updatable()) u->FreezeNaturalGradient(freeze);
}

void CompositeComponent::SetUnderlyingLearningRate(float lrate) {
  UpdatableComponent::SetUnderlyingLearningRate(lrate);
  // A learning-rate-factor at this level applies on top of the
  // sub-components' own factors.
  for (UpdatableComponent *u : Updatable())
    u->SetUnderlyingLearningRate(LearningRate());
}

void CompositeComponent::SetActualLearningRate(float lrate) {
  UpdatableComponent::SetActualLearningRate(lrate);
  for (UpdatableComponent *u : Updatable()) u->SetActualLearningRate(lrate);
}

void CompositeComponent::SetAsGradient() {
  UpdatableComponent::SetAsGradient();
  for (UpdatableComponent *u : Updatable()) u->SetAsGradient();
}

const Component *CompositeComponent::GetComponent(int32_t i) const {
  NNET3_ASSERT(i >= 0 && i < NumComponents());
  return components_[i].get();
}

void CompositeComponent::SetComponent(int32_t i,
                                      std::unique_ptr<Component> component) {
  NNET3_ASSERT(i >= 0 && i < NumComponents() &&
               component->InputDim() == components_[i]->InputDim() &&
               component->OutputDim() == components_[i]->OutputDim());
  components_[i] = std::move(component);
}

}  // namespace nnet3
