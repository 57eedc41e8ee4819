#include "nnet-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix.h"
#include "nnet/component-registry.h"

namespace nnet3 {

Nnet NnetFromConfig(const std::string &config) {
  Nnet nnet;
  ApplyConfig(config, &nnet);
  return nnet;
}

void ApplyConfig(const std::string &config, Nnet *nnet) {
  std::istringstream is(config);
  nnet->ReadConfig(is, "nnet.config");
}

std::string ConfigError(const std::string &config, const Nnet *nnet) {
  Nnet tmp;
  if (nnet != nullptr) tmp = *nnet;
  try {
    ApplyConfig(config, &tmp);
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "<no error>";
}

std::string WriteToString(const Nnet &nnet, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  nnet.Write(os, binary);
  return os.str();
}

Nnet ReadFromString(const std::string &bytes) {
  std::istringstream is(bytes);
  bool binary;
  if (!InitKaldiInputStream(is, &binary))
    throw UserError("bad binary header", SourceLocation());
  Nnet nnet;
  nnet.Read(is, binary);
  return nnet;
}

bool HaveComponentTypes(const std::vector<std::string> &types) {
  std::vector<std::string> have = RegisteredComponentTypes(), missing;
  for (const std::string &t : types)
    if (std::find(have.begin(), have.end(), t) == have.end())
      missing.push_back(t);
  for (const std::string &t : missing)
    WARN("skipping: component type " << t << " is not registered yet");
  return missing.empty();
}

std::optional<std::vector<float>> FrameEvaluator::Value(int32_t node, int32_t t,
                                                        int32_t x) {
  auto key = std::make_tuple(node, t, x);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  std::optional<std::vector<float>> ans = Compute(node, Index(0, t, x));
  cache_[key] = ans;
  return ans;
}

std::optional<std::vector<float>> FrameEvaluator::Compute(int32_t node,
                                                          const Index &index) {
  const NetworkNode &n = nnet_.GetNode(node);
  switch (n.node_type) {
    case kInput: {
      if (index.t < t_begin_ || index.t >= t_end_ || index.x != 0)
        return std::nullopt;
      std::vector<float> v(n.dim);
      size_t h = std::hash<std::string>()(nnet_.GetNodeName(node)) % 97;
      for (int32_t d = 0; d < n.dim; d++)
        v[d] = std::sin(0.37f * index.t + 1.1f * d + 0.3f * h);
      return v;
    }
    case kDimRange: {
      auto src = Value(n.node_index, index.t, index.x);
      if (!src) return std::nullopt;
      return std::vector<float>(src->begin() + n.dim_offset,
                                src->begin() + n.dim_offset + n.dim);
    }
    case kDescriptor: {
      std::vector<float> ans;
      for (int32_t p = 0; p < n.descriptor.NumParts(); p++) {
        auto part = PartValue(n.descriptor.Part(p), index);
        if (!part) return std::nullopt;
        ans.insert(ans.end(), part->begin(), part->end());
      }
      return ans;
    }
    default: {
      auto in = Value(node - 1, index.t, index.x);
      if (!in) return std::nullopt;
      const Component &c = *nnet_.GetComponent(n.component_index);
      Matrix in_mat(1, c.InputDim()), out_mat(1, c.OutputDim());
      in_mat.CopyFromHost(*in);
      c.DeleteMemo(c.Propagate(nullptr, in_mat, &out_mat));
      return out_mat.ToHost();
    }
  }
}

std::optional<std::vector<float>> FrameEvaluator::PartValue(
    const SumDescriptor &part, const Index &index) {
  auto node_dim = [this](int32_t i) { return nnet_.GetNode(i).Dim(nnet_); };
  if (auto *s = dynamic_cast<const SimpleSumDescriptor *>(&part)) {
    Cindex c = s->Src().MapToInput(index);
    auto v = Value(c.first, c.second.t, c.second.x);
    if (!v) return std::nullopt;
    float scale = s->Src().GetScaleForNode(c.first);
    for (float &f : *v) f *= scale;
    return v;
  }
  if (auto *o = dynamic_cast<const OptionalSumDescriptor *>(&part)) {
    auto v = PartValue(o->Src(), index);
    if (v) return v;
    return std::vector<float>(part.Dim(node_dim), 0.0f);
  }
  if (auto *c = dynamic_cast<const ConstantSumDescriptor *>(&part))
    return std::vector<float>(part.Dim(node_dim), c->Value());
  auto *b = dynamic_cast<const BinarySumDescriptor *>(&part);
  REQUIRE(b != nullptr);
  auto v1 = PartValue(b->Src1(), index), v2 = PartValue(b->Src2(), index);
  if (b->Op() == BinarySumDescriptor::kFailoverOperation) return v1 ? v1 : v2;
  if (!v1 || !v2) return std::nullopt;
  for (size_t i = 0; i < v1->size(); i++) (*v1)[i] += (*v2)[i];
  return v1;
}

float CheckSameOutputs(const Nnet &a, const Nnet &b, float tolerance) {
  FrameEvaluator ea(a, -6, 6), eb(b, -6, 6);
  int32_t num_computable = 0;
  float max_diff = 0.0f;
  for (int32_t n = 0; n < a.NumNodes(); n++) {
    if (!a.IsOutputNode(n)) continue;
    int32_t m = b.GetNodeIndex(a.GetNodeName(n));
    REQUIRE(m != -1);
    for (int32_t t = -8; t < 8; t++) {
      auto va = ea.Value(n, t), vb = eb.Value(m, t);
      INFO("output " << a.GetNodeName(n) << " t=" << t);
      REQUIRE(va.has_value() == vb.has_value());
      if (!va) continue;
      num_computable++;
      REQUIRE(va->size() == vb->size());
      for (size_t i = 0; i < va->size(); i++) {
        CHECK((*va)[i] == Approx((*vb)[i]).margin(tolerance).epsilon(
                              std::min(tolerance, 1.0f)));
        max_diff = std::max(max_diff, std::fabs((*va)[i] - (*vb)[i]));
      }
    }
  }
  CHECK(num_computable > 5);
  return max_diff;
}

}  // namespace nnet3
