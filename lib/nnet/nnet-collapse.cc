// CollapseModel (nnet3-copy --prepare-for-test): exact rewrites that make a
// network in test mode cheaper to run. Three passes, each exact:
//
// 1. Dropout in test mode is a fixed scale (DropoutComponent: 1 - p;
//    GeneralDropoutComponent and SpecAugmentTimeMaskComponent: 1). Every
//    descriptor that reads a dropout node D (whose own input descriptor is X)
//    is rewritten to read Scale(scale, X) in its place — the descriptor text
//    with D's name replaced, parsed and normalized again. Valid because the
//    component is row-wise: D(t) = scale * X(t), so Offset(D, -1) =
//    Offset(Scale(s, X), -1). A rewrite that does not parse (e.g. Scale over
//    IfDefined) is not made, and dim-range nodes keep reading D.
// 2. Batch-norm in test mode is y = x .* s + o per column (s and o of
//    block-dim, repeated over the blocks), computed from the stats as the
//    component does: s = target-rms / sqrt(max(var, 0) + epsilon),
//    o = -mean .* s. An affine component node A (AffineComponent and its
//    natural-gradient subclass, FixedAffineComponent, TdnnComponent — whose
//    W has one block of columns per time offset, each folded alike, and
//    which gains a bias if it had none) whose input has an
//    Append part that is a plain forwarding expression of a batch-norm
//    node B with scale k (B, Offset(B, -1), Scale(k, B), ...) reads, after
//    the fold, the same expression of B's input instead: its columns for
//    that part are multiplied by s and its bias gains k W_part o. Parts
//    under IfDefined/Sum/Failover are not folded: a missing B would then
//    contribute zero rather than o.
// 3. A batch-norm node B in test mode that reads an affine node A directly
//    (a forwarding expression with scale 1) becomes an affine node itself:
//    a copy of A's component with W' = diag(s) W and b' = s .* b + o, fed
//    by A's input expression.
// After each pass the nodes and components no output needs are removed
// (RemoveOrphanNodes, RemoveOrphanComponents), as Kaldi does.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/dropout-components.h"
#include "nnet/components/normalize-components.h"
#include "nnet/components/random-mask-components.h"
#include "nnet/components/tdnn-components.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

std::string FloatText(float f) {
  std::ostringstream os;
  os << std::setprecision(9) << f;
  return os.str();
}

std::string DescriptorText(const Nnet &nnet, const SumDescriptor &part) {
  std::ostringstream os;
  part.WriteConfig(os, nnet.GetNodeNames());
  return os.str();
}

std::string DescriptorText(const Nnet &nnet, const Descriptor &d) {
  std::ostringstream os;
  d.WriteConfig(os, nnet.GetNodeNames());
  return os.str();
}

// `text` with every token equal to `name` replaced by `replacement`; the
// tokens are re-joined with spaces (the parser does not care).
std::string Substitute(const std::string &text, const std::string &name,
                       const std::string &replacement) {
  std::vector<std::string> tokens;
  NNET3_ASSERT(DescriptorTokenize(text, &tokens));
  std::string ans;
  for (const std::string &t : tokens)
    ans += (t == name ? replacement : t) + " ";
  return ans;
}

// Parses `text` into *d; false (d unchanged) if it does not parse or its
// scales are inconsistent.
bool TryParse(const Nnet &nnet, const std::string &text, Descriptor *d) {
  Descriptor tmp;
  try {
    tmp.Parse(nnet.GetReferableNodeNames(), text);
    std::vector<int32_t> deps;
    tmp.GetNodeDependencies(&deps);
    for (int32_t p = 0; p < tmp.NumParts(); p++)
      for (int32_t n : deps) tmp.Part(p).FindScaleForNode(n);
  } catch (const UserError &) {
    return false;
  }
  *d = std::move(tmp);
  return true;
}

// The single node a forwarding descriptor reads, or -1.
int32_t SingleSource(const ForwardingDescriptor &f) {
  std::vector<int32_t> deps;
  f.GetNodeDependencies(&deps);
  for (int32_t n : deps)
    if (n != deps[0]) return -1;
  return deps.empty() ? -1 : deps[0];
}

// The input descriptor of component node n, as text.
std::string InputText(const Nnet &nnet, int32_t n) {
  return DescriptorText(nnet, nnet.GetNode(n - 1).descriptor);
}

// A test-mode batch-norm's s and o, repeated to the full dim (the
// component's own values, as Kaldi's CollapseModel takes them).
struct BatchNormAffine {
  Vector scale, offset;
};

bool GetBatchNormAffine(const Component &c, BatchNormAffine *ans) {
  auto *bn = dynamic_cast<const BatchNormComponent *>(&c);
  if (bn == nullptr || !bn->TestMode()) return false;
  const std::vector<float> scale = bn->TestScale().ToHost(),
                           offset = bn->TestOffset().ToHost();
  const int32_t block = static_cast<int32_t>(scale.size()),
                dim = bn->InputDim();
  NNET3_ASSERT(block > 0 && dim % block == 0);
  std::vector<float> s(dim), o(dim);
  for (int32_t j = 0; j < dim; j++) {
    s[j] = scale[j % block];
    o[j] = offset[j % block];
  }
  ans->scale = Vector(s);
  ans->offset = Vector(o);
  return true;
}

// The affine kinds batch-norm can be folded into.
bool IsAffine(const Component &c) {
  return dynamic_cast<const AffineComponent *>(&c) != nullptr ||
         dynamic_cast<const FixedAffineComponent *>(&c) != nullptr ||
         dynamic_cast<const TdnnComponent *>(&c) != nullptr;
}

// W and b of an affine kind; a TdnnComponent without a bias gives zeros.
// (A TdnnComponent's W has one block of input-dim columns per time offset.)
void GetParams(const Component &c, Matrix *linear, Vector *bias) {
  if (auto *a = dynamic_cast<const AffineComponent *>(&c)) {
    *linear = a->LinearParams();
    *bias = a->BiasParams();
  } else if (auto *t = dynamic_cast<const TdnnComponent *>(&c)) {
    *linear = t->LinearParams();
    *bias =
        t->BiasParams().Dim() != 0 ? t->BiasParams() : Vector(t->OutputDim());
  } else {
    auto *f = dynamic_cast<const FixedAffineComponent *>(&c);
    NNET3_ASSERT(f != nullptr);
    *linear = f->LinearParams();
    *bias = f->BiasParams();
  }
}

std::unique_ptr<Component> WithParams(const Component &c, const Matrix &linear,
                                      const Vector &bias) {
  std::unique_ptr<Component> ans = c.Copy();
  if (auto *a = dynamic_cast<AffineComponent *>(ans.get()))
    a->SetParams(bias, linear);
  else if (auto *t = dynamic_cast<TdnnComponent *>(ans.get()))
    t->SetParams(bias, linear);  // gains a bias if it had none
  else
    dynamic_cast<FixedAffineComponent *>(ans.get())->SetParams(bias, linear);
  return ans;
}

int32_t NumNodesUsing(const Nnet &nnet, int32_t component) {
  int32_t ans = 0;
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    ans +=
        nnet.IsComponentNode(n) && nnet.GetNode(n).component_index == component;
  return ans;
}

// `base`, or base2, base3, ... if that component name is taken.
std::string UniqueComponentName(const Nnet &nnet, const std::string &base) {
  std::string name = base;
  for (int32_t i = 2; nnet.GetComponentIndex(name) != -1; i++)
    name = base + std::to_string(i);
  return name;
}

// Puts `c` in for node n's component: in place when n is its only user,
// otherwise as a new component "<old name>.collapsed".
void SetNodeComponent(int32_t n, std::unique_ptr<Component> c, Nnet *nnet) {
  int32_t old = nnet->GetNode(n).component_index;
  if (NumNodesUsing(*nnet, old) == 1) {
    nnet->SetComponent(old, std::move(c));
    return;
  }
  std::string name =
      UniqueComponentName(*nnet, nnet->GetComponentName(old) + ".collapsed");
  nnet->GetNode(n).component_index = nnet->AddComponent(name, std::move(c));
}

// Pass 1. Returns the number of descriptors rewritten.
int32_t BypassDropout(Nnet *nnet) {
  int32_t num_rewritten = 0;
  for (int32_t d = 0; d < nnet->NumNodes(); d++) {
    if (!nnet->IsComponentNode(d)) continue;
    const Component *c = nnet->GetComponent(nnet->GetNode(d).component_index);
    float scale;
    if (auto *dc = dynamic_cast<const DropoutComponent *>(c)) {
      if (!dc->TestMode()) continue;
      scale = 1.0f - dc->DropoutProportion();
    } else if (auto *gc = dynamic_cast<const GeneralDropoutComponent *>(c)) {
      if (!gc->TestMode()) continue;
      scale = 1.0f;
    } else if (auto *sc =
                   dynamic_cast<const SpecAugmentTimeMaskComponent *>(c)) {
      if (!sc->TestMode()) continue;
      scale = 1.0f;  // (Kaldi keeps it; it is the identity in test mode)
    } else {
      continue;
    }
    const std::string &name = nnet->GetNodeName(d);
    if (name == "t" || name == "x") continue;  // ReplaceIndex's keywords
    std::string input = InputText(*nnet, d);
    std::string replacement =
        scale == 1.0f ? input
                      : "Scale(" + FloatText(scale) + ", " + input + ")";
    for (int32_t u = 0; u < nnet->NumNodes(); u++) {
      if (!nnet->IsDescriptorNode(u) || u == d - 1) continue;
      NetworkNode &user = nnet->GetNode(u);
      std::vector<int32_t> deps;
      user.descriptor.GetNodeDependencies(&deps);
      if (std::find(deps.begin(), deps.end(), d) == deps.end()) continue;
      std::string text = DescriptorText(*nnet, user.descriptor);
      if (TryParse(*nnet, Substitute(text, name, replacement),
                   &user.descriptor))
        num_rewritten++;
    }
  }
  return num_rewritten;
}

// Pass 2 for one affine node m. Returns whether anything was folded.
bool FoldBatchNormIntoNextAffine(int32_t m, Nnet *nnet) {
  const Component &affine =
      *nnet->GetComponent(nnet->GetNode(m).component_index);
  const Descriptor &d = nnet->GetNode(m - 1).descriptor;
  auto node_dim = [nnet](int32_t n) { return nnet->GetNode(n).Dim(*nnet); };
  Matrix linear;
  Vector bias;
  GetParams(affine, &linear, &bias);
  // W's columns get s, the bias W o, over the folded parts' columns (once
  // per time offset for a TdnnComponent), in one product over all of W as
  // Kaldi's (o is 0 and s 1 elsewhere, which changes no sum).
  const int32_t num_cols = linear.NumCols(), in_dim = affine.InputDim();
  std::vector<float> full_scale(num_cols, 1.0f), full_offset(num_cols, 0.0f);
  std::string text;
  bool folded = false;
  int32_t col = 0;
  for (int32_t p = 0; p < d.NumParts(); p++) {
    const SumDescriptor &part = d.Part(p);
    int32_t dim = part.Dim(node_dim);
    std::string part_text = DescriptorText(*nnet, part);
    auto *simple = dynamic_cast<const SimpleSumDescriptor *>(&part);
    int32_t b = simple ? SingleSource(simple->Src()) : -1;
    BatchNormAffine bn;
    if (b != -1 && nnet->IsComponentNode(b) &&
        GetBatchNormAffine(
            *nnet->GetComponent(nnet->GetNode(b).component_index), &bn) &&
        nnet->GetNodeName(b) != "t" && nnet->GetNodeName(b) != "x") {
      const float k = simple->Src().GetScaleForNode(b);
      const std::vector<float> s = bn.scale.ToHost(), o = bn.offset.ToHost();
      for (int32_t base = 0; base < num_cols; base += in_dim) {
        for (int32_t j = 0; j < dim; j++) {
          full_scale[base + col + j] = s[j];
          full_offset[base + col + j] = k * o[j];
        }
      }
      part_text =
          Substitute(part_text, nnet->GetNodeName(b), InputText(*nnet, b));
      folded = true;
    }
    text += (p > 0 ? ", " : "") + part_text;
    col += dim;
  }
  if (!folded) return false;
  bias.AddMatVec(1.0f, linear, Trans::kNo, Vector(full_offset), 1.0f);
  linear.MulColsVec(Vector(full_scale));
  if (d.NumParts() > 1) text = "Append(" + text + ")";
  Descriptor new_descriptor;
  if (!TryParse(*nnet, text, &new_descriptor)) return false;
  if (new_descriptor.Dim(node_dim) != affine.InputDim()) return false;
  nnet->GetNode(m - 1).descriptor = std::move(new_descriptor);
  SetNodeComponent(m, WithParams(affine, linear, bias), nnet);
  return true;
}

// Pass 3 for one batch-norm node b. Returns whether it was folded.
bool FoldBatchNormIntoPreviousAffine(int32_t b, Nnet *nnet) {
  BatchNormAffine bn;
  if (!GetBatchNormAffine(*nnet->GetComponent(nnet->GetNode(b).component_index),
                          &bn))
    return false;
  const Descriptor &d = nnet->GetNode(b - 1).descriptor;
  if (d.NumParts() != 1) return false;
  auto *simple = dynamic_cast<const SimpleSumDescriptor *>(&d.Part(0));
  int32_t a = simple ? SingleSource(simple->Src()) : -1;
  if (a == -1 || !nnet->IsComponentNode(a) ||
      simple->Src().GetScaleForNode(a) != 1.0f)
    return false;
  const Component &affine =
      *nnet->GetComponent(nnet->GetNode(a).component_index);
  const std::string &a_name = nnet->GetNodeName(a);
  if (!IsAffine(affine) || a_name == "t" || a_name == "x") return false;
  std::string text =
      Substitute(DescriptorText(*nnet, d), a_name, InputText(*nnet, a));
  Descriptor new_descriptor;
  if (!TryParse(*nnet, text, &new_descriptor)) return false;
  Matrix linear;
  Vector bias;
  GetParams(affine, &linear, &bias);
  linear.MulRowsVec(bn.scale);
  bias.MulElements(bn.scale);
  bias.AddVec(1.0f, bn.offset);
  std::string name = UniqueComponentName(
      *nnet, nnet->GetComponentName(nnet->GetNode(a).component_index) + "." +
                 nnet->GetNodeName(b));
  nnet->GetNode(b - 1).descriptor = std::move(new_descriptor);
  nnet->GetNode(b).component_index =
      nnet->AddComponent(name, WithParams(affine, linear, bias));
  return true;
}

void RemoveOrphans(Nnet *nnet) {
  nnet->RemoveOrphanNodes(false);
  nnet->RemoveOrphanComponents();
}

}  // namespace

void CollapseModel(const CollapseModelConfig &config, Nnet *nnet) {
  int32_t num_dropout = 0, num_next = 0, num_previous = 0;
  if (config.collapse_dropout) {
    num_dropout = BypassDropout(nnet);
    RemoveOrphans(nnet);
  }
  if (config.collapse_batchnorm) {
    for (int32_t n = 0; n < nnet->NumNodes(); n++)
      if (nnet->IsComponentNode(n) &&
          IsAffine(*nnet->GetComponent(nnet->GetNode(n).component_index)))
        num_next += FoldBatchNormIntoNextAffine(n, nnet);
    RemoveOrphans(nnet);
    for (int32_t n = 0; n < nnet->NumNodes(); n++)
      if (nnet->IsComponentNode(n))
        num_previous += FoldBatchNormIntoPreviousAffine(n, nnet);
    RemoveOrphans(nnet);
  }
  nnet->Check(false);
  NNET3_LOG << "CollapseModel: bypassed dropout in " << num_dropout
            << " descriptors; folded batch-norm into " << num_next
            << " following and " << num_previous << " preceding affine nodes";
}

}  // namespace nnet3
