#include "nnet/nnet-utils.h"

#include <memory>

#include "base/error.h"
#include "nnet/components/composite-components.h"
#include "nnet/components/dropout-components.h"
#include "nnet/components/linear-components.h"
#include "nnet/components/normalize-components.h"
#include "nnet/components/random-mask-components.h"
#include "nnet/components/repeated-affine-components.h"

namespace nnet3 {

int32_t NumInputNodes(const Nnet &nnet) {
  int32_t ans = 0;
  for (int32_t n = 0; n < nnet.NumNodes(); n++) ans += nnet.IsInputNode(n);
  return ans;
}

int32_t NumOutputNodes(const Nnet &nnet) {
  int32_t ans = 0;
  for (int32_t n = 0; n < nnet.NumNodes(); n++) ans += nnet.IsOutputNode(n);
  return ans;
}

void NnetToDirectedGraph(const Nnet &nnet,
                         std::vector<std::vector<int32_t>> *graph) {
  graph->clear();
  graph->resize(nnet.NumNodes());
  for (int32_t n = 0; n < nnet.NumNodes(); n++) {
    const NetworkNode &node = nnet.GetNode(n);
    std::vector<int32_t> deps;
    switch (node.node_type) {
      case kDescriptor:
        node.descriptor.GetNodeDependencies(&deps);
        break;
      case kComponent:
        deps.push_back(n - 1);
        break;
      case kDimRange:
        deps.push_back(node.node_index);
        break;
      default:
        break;
    }
    for (int32_t d : deps) (*graph)[d].push_back(n);
  }
}

void FindOrphanComponents(const Nnet &nnet, std::vector<int32_t> *components) {
  std::vector<bool> used(nnet.NumComponents(), false);
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    if (nnet.IsComponentNode(n)) used[nnet.GetNode(n).component_index] = true;
  components->clear();
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    if (!used[c]) components->push_back(c);
}

void FindOrphanNodes(const Nnet &nnet, std::vector<int32_t> *nodes) {
  std::vector<std::vector<int32_t>> users;
  NnetToDirectedGraph(nnet, &users);
  // Walk backwards from the outputs along "depends on" edges.
  std::vector<std::vector<int32_t>> depends_on(nnet.NumNodes());
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    for (int32_t user : users[n]) depends_on[user].push_back(n);
  std::vector<bool> required(nnet.NumNodes(), false);
  std::vector<int32_t> queue;
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    if (nnet.IsOutputNode(n)) queue.push_back(n);
  while (!queue.empty()) {
    int32_t n = queue.back();
    queue.pop_back();
    if (required[n]) continue;
    required[n] = true;
    for (int32_t d : depends_on[n]) queue.push_back(d);
  }
  nodes->clear();
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    if (!required[n]) nodes->push_back(n);
}

bool NameMatchesPattern(const std::string &name, const std::string &pattern) {
  // Iterative glob with backtracking to the last '*'.
  size_t n = 0, p = 0, star = std::string::npos, match = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      match = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      p++;
      n++;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++match;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') p++;
  return p == pattern.size();
}

int64_t NumParameters(const Nnet &nnet) {
  int64_t ans = 0;
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    if (auto *u =
            dynamic_cast<const UpdatableComponent *>(nnet.GetComponent(c)))
      ans += u->NumParameters();
  return ans;
}

int32_t NumUpdatableComponents(const Nnet &nnet) {
  int32_t ans = 0;
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    ans += dynamic_cast<const UpdatableComponent *>(nnet.GetComponent(c)) !=
           nullptr;
  return ans;
}

void SetLearningRate(float learning_rate, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    if (auto *u = dynamic_cast<UpdatableComponent *>(nnet->GetComponent(c)))
      u->SetUnderlyingLearningRate(learning_rate);
}

void ScaleNnet(float scale, Nnet *nnet) {
  if (scale == 1.0f) return;
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    nnet->GetComponent(c)->Scale(scale);
}

void AddNnet(const Nnet &src, float alpha, Nnet *nnet) {
  if (src.NumComponents() != nnet->NumComponents())
    NNET3_ERR << "Cannot add networks with different numbers of components ("
              << src.NumComponents() << " vs. " << nnet->NumComponents() << ")";
  for (int32_t c = 0; c < src.NumComponents(); c++) {
    const Component *a = src.GetComponent(c);
    Component *b = nnet->GetComponent(c);
    if (a->Type() != b->Type())
      NNET3_ERR << "Cannot add networks: component " << c << " ('"
                << nnet->GetComponentName(c) << "') is a " << b->Type()
                << " in one and a " << a->Type() << " in the other";
    if (a->InputDim() != b->InputDim() || a->OutputDim() != b->OutputDim())
      NNET3_ERR << "Cannot add networks: component " << c << " ('"
                << nnet->GetComponentName(c) << "') has dims " << b->InputDim()
                << " -> " << b->OutputDim() << " in one and " << a->InputDim()
                << " -> " << a->OutputDim() << " in the other";
    b->Add(alpha, *a);
  }
}

double DotProduct(const Nnet &a, const Nnet &b) {
  NNET3_ASSERT(a.NumComponents() == b.NumComponents());
  double ans = 0.0;
  for (int32_t c = 0; c < a.NumComponents(); c++) {
    auto *ua = dynamic_cast<const UpdatableComponent *>(a.GetComponent(c));
    auto *ub = dynamic_cast<const UpdatableComponent *>(b.GetComponent(c));
    if (ua != nullptr && ub != nullptr) ans += ua->DotProduct(*ub);
  }
  return ans;
}

void SetNnetAsGradient(Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    if (auto *u = dynamic_cast<UpdatableComponent *>(nnet->GetComponent(c)))
      u->SetAsGradient();
}

void FreezeNaturalGradient(bool freeze, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    if (auto *u = dynamic_cast<UpdatableComponent *>(nnet->GetComponent(c)))
      u->FreezeNaturalGradient(freeze);
}

void ZeroComponentStats(Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    nnet->GetComponent(c)->ZeroStats();
}

namespace {

// The BlockAffineComponent for `c` if it is a repeated-affine component.
std::unique_ptr<Component> BlockFromRepeated(const Component &c) {
  if (auto *rac = dynamic_cast<const RepeatedAffineComponent *>(&c))
    return std::make_unique<BlockAffineComponent>(*rac);
  return nullptr;
}

}  // namespace

void ConvertRepeatedToBlockAffine(Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    Component *component = nnet->GetComponent(c);
    if (auto block = BlockFromRepeated(*component)) {
      nnet->SetComponent(c, std::move(block));
    } else if (auto *cc = dynamic_cast<CompositeComponent *>(component)) {
      for (int32_t i = 0; i < cc->NumComponents(); i++)
        if (auto sub = BlockFromRepeated(*cc->GetComponent(i)))
          cc->SetComponent(i, std::move(sub));
    }
  }
}

void SetDropoutTestMode(bool test_mode, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    if (auto *r = dynamic_cast<RandomComponent *>(nnet->GetComponent(c)))
      r->SetTestMode(test_mode);
}

void SetBatchnormTestMode(bool test_mode, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    if (auto *bn = dynamic_cast<BatchNormComponent *>(nnet->GetComponent(c)))
      bn->SetTestMode(test_mode);
}

bool SetComponentDropoutProportion(float dropout_proportion,
                                   Component *component) {
  if (auto *d = dynamic_cast<DropoutComponent *>(component)) {
    d->SetDropoutProportion(dropout_proportion);
    return true;
  }
  if (auto *g = dynamic_cast<GeneralDropoutComponent *>(component)) {
    g->SetDropoutProportion(dropout_proportion);
    return true;
  }
  if (auto *m = dynamic_cast<DropoutMaskComponent *>(component)) {
    m->SetDropoutProportion(dropout_proportion);
    return true;
  }
  return false;
}

void SetDropoutProportion(float dropout_proportion, Nnet *nnet) {
  if (!(dropout_proportion >= 0.0f && dropout_proportion < 1.0f))
    NNET3_ERR << "Invalid dropout proportion " << dropout_proportion
              << " (must be in [0, 1))";
  for (int32_t c = 0; c < nnet->NumComponents(); c++)
    SetComponentDropoutProportion(dropout_proportion, nnet->GetComponent(c));
}

}  // namespace nnet3
