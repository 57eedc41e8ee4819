#include "nnet/nnet-svd.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/linear-components.h"
#include "nnet/host-svd.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {

namespace {

// W = U diag(s) Vt of an affine component's linear parameters (out x in).
struct AffineSvd {
  int32_t rows = 0, cols = 0;
  std::vector<double> s, u, vt;  // k = min(rows, cols) singular values

  explicit AffineSvd(const AffineComponent &affine)
      : rows(affine.OutputDim()), cols(affine.InputDim()) {
    const std::vector<float> w = affine.LinearParams().ToHost();
    HostSvd(rows, cols, std::vector<double>(w.begin(), w.end()), &s, &u, &vt);
  }
  int32_t K() const { return static_cast<int32_t>(s.size()); }

  // diag(s_d)^power Vt_d: the first d rows of Vt, scaled (d x cols).
  Matrix ScaledVt(int32_t d, double power) const {
    std::vector<float> m(static_cast<size_t>(d) * cols);
    for (int32_t i = 0; i < d; i++) {
      const double scale = std::pow(s[i], power);
      for (int32_t j = 0; j < cols; j++)
        m[static_cast<size_t>(i) * cols + j] =
            static_cast<float>(scale * vt[static_cast<size_t>(i) * cols + j]);
    }
    return ToMatrix(d, cols, m);
  }
  // U_d diag(s_d)^power: the first d columns of U, scaled (rows x d).
  Matrix ScaledU(int32_t d, double power) const {
    std::vector<float> m(static_cast<size_t>(rows) * d);
    for (int32_t i = 0; i < rows; i++)
      for (int32_t j = 0; j < d; j++)
        m[static_cast<size_t>(i) * d + j] = static_cast<float>(
            std::pow(s[j], power) * u[static_cast<size_t>(i) * K() + j]);
    return ToMatrix(rows, d, m);
  }
  // Sum over the first d singular values of s^power.
  double Sum(int32_t d, double power) const {
    double sum = 0.0;
    for (int32_t i = 0; i < d; i++) sum += std::pow(s[i], power);
    return sum;
  }

 private:
  static Matrix ToMatrix(int32_t r, int32_t c, const std::vector<float> &m) {
    Matrix mat(r, c);
    mat.CopyFromHost(m);
    return mat;
  }
};

// The matching AffineComponents (index), with Kaldi's warning for matching
// components of other types (`what` is "decomposing" or "reducing rank
// of").
std::vector<int32_t> MatchingAffineComponents(const Nnet &nnet,
                                              const std::string &pattern,
                                              const char *what) {
  std::vector<int32_t> matches;
  for (int32_t c = 0; c < nnet.NumComponents(); c++) {
    if (!NameMatchesPattern(nnet.GetComponentName(c), pattern)) continue;
    if (dynamic_cast<const AffineComponent *>(nnet.GetComponent(c)) ==
        nullptr) {
      NNET3_WARN << "Not " << what << " component " << nnet.GetComponentName(c)
                 << " as it is not an AffineComponent.";
      continue;
    }
    matches.push_back(c);
  }
  return matches;
}

// The fewest leading singular values whose squares sum to at least
// `energy` times the total (Kaldi's GetReducedDimension).
int32_t DimForEnergy(const AffineSvd &svd, double energy) {
  const double target = energy * svd.Sum(svd.K(), 2.0);
  double sum = 0.0;
  for (int32_t i = 0; i < svd.K(); i++) {
    sum += svd.s[i] * svd.s[i];
    if (sum >= target) return i + 1;
  }
  return svd.K();
}

// The two components that replace `affine` (see the file comment), or
// false if it is to be left alone (with Kaldi's log line saying why).
bool FactorComponent(const ApplySvdOptions &opts, const std::string &name,
                     const AffineComponent &affine,
                     std::unique_ptr<Component> *a,
                     std::unique_ptr<Component> *b) {
  const int32_t in = affine.InputDim(), out = affine.OutputDim();
  if (opts.energy_threshold <= 0.0f &&
      (in <= opts.bottleneck_dim || out <= opts.bottleneck_dim)) {
    NNET3_WARN << "Not decomposing component " << name << " with SVD to rank "
               << opts.bottleneck_dim << " because its dimension is " << in
               << " -> " << out;
    return false;
  }
  const AffineSvd svd(affine);
  const int32_t d = opts.energy_threshold > 0.0f
                        ? DimForEnergy(svd, opts.energy_threshold)
                        : opts.bottleneck_dim;
  const double ratio = static_cast<double>(d) * (in + out) / (1.0 * in * out);
  if (ratio > opts.shrinkage_threshold) {
    NNET3_LOG << "Shrinkage ratio " << ratio
              << " greater than threshold : " << opts.shrinkage_threshold
              << " Skipping SVD for this layer.";
    return false;
  }
  const double total = svd.Sum(svd.K(), 2.0), kept = svd.Sum(d, 2.0);
  NNET3_LOG << "For component " << name
            << " singular value squared sum changed by " << (total - kept)
            << " (from " << total << " to " << kept << ")";
  NNET3_LOG << "For component " << name << " dimension reduced from "
            << " (" << in << "," << out << ")"
            << " to [(" << in << "," << d << "), (" << d << "," << out << ")]";
  NNET3_LOG << "shrinkage ratio : " << ratio;
  // The singular values are shared equally by the two factors.
  auto linear = std::make_unique<LinearComponent>(svd.ScaledVt(d, 0.5));
  auto affine_b = std::make_unique<NaturalGradientAffineComponent>(
      svd.ScaledU(d, 0.5), affine.BiasParams());
  linear->SetUpdatableConfigs(affine);
  affine_b->SetUpdatableConfigs(affine);
  *a = std::move(linear);
  *b = std::move(affine_b);
  return true;
}

// Config lines for every node except inputs and component inputs, in node
// order, where each node of a factored component (factored[c]) becomes
// <node>_a (component <C>_a, the node's input) and <node>_b (<C>_b, input
// <node>_a), and references to such a node refer to <node>_b.
std::string SplitNodesConfig(const Nnet &nnet,
                             const std::vector<bool> &factored) {
  std::vector<std::string> names = nnet.GetNodeNames();
  auto is_split = [&](int32_t n) {
    return nnet.IsComponentNode(n) && factored[nnet.GetNode(n).component_index];
  };
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    if (is_split(n)) names[n] += "_b";
  std::ostringstream os;
  for (int32_t n = 0; n < nnet.NumNodes(); n++) {
    if (nnet.IsInputNode(n) || nnet.IsComponentInputNode(n)) continue;
    const NetworkNode &node = nnet.GetNode(n);
    const std::string &name = nnet.GetNodeName(n);
    if (is_split(n)) {
      const std::string &c = nnet.GetComponentName(node.component_index);
      os << "component-node name=" << name << "_a component=" << c
         << "_a input=";
      nnet.GetNode(n - 1).descriptor.WriteConfig(os, names);
      os << "\ncomponent-node name=" << name << "_b component=" << c
         << "_b input=" << name << "_a\n";
    } else if (nnet.IsOutputNode(n)) {
      os << "output-node name=" << name << " input=";
      node.descriptor.WriteConfig(os, names);
      os << " objective="
         << (node.objective_type == kLinear ? "linear" : "quadratic") << "\n";
    } else if (nnet.IsComponentNode(n)) {
      os << "component-node name=" << name
         << " component=" << nnet.GetComponentName(node.component_index)
         << " input=";
      nnet.GetNode(n - 1).descriptor.WriteConfig(os, names);
      os << "\n";
    } else {
      NNET3_ASSERT(nnet.IsDimRangeNode(n));
      os << "dim-range-node name=" << name
         << " input-node=" << names[node.node_index]
         << " dim-offset=" << node.dim_offset << " dim=" << node.dim << "\n";
    }
  }
  return os.str();
}

// UserError if a name that apply-svd would create is taken.
void CheckNewNamesAreFree(const Nnet &nnet, const std::vector<bool> &factored) {
  for (int32_t c = 0; c < nnet.NumComponents(); c++)
    if (factored[c])
      for (const char *suffix : {"_a", "_b"})
        if (nnet.GetComponentIndex(nnet.GetComponentName(c) + suffix) != -1)
          NNET3_ERR << "Neural network already has a component named "
                    << nnet.GetComponentName(c) + suffix;
  for (int32_t n = 0; n < nnet.NumNodes(); n++)
    if (nnet.IsComponentNode(n) && factored[nnet.GetNode(n).component_index])
      for (const char *suffix : {"_a", "_b"})
        if (nnet.GetNodeIndex(nnet.GetNodeName(n) + suffix) != -1)
          NNET3_ERR << "Neural network already has a node named "
                    << nnet.GetNodeName(n) + suffix;
}

}  // namespace

int32_t ApplySvdToComponents(const ApplySvdOptions &opts, Nnet *nnet) {
  if (opts.energy_threshold <= 0.0f && opts.bottleneck_dim <= 0)
    NNET3_ERR << "apply-svd needs bottleneck-dim=<dim> or "
              << "energy-threshold=<fraction in (0, 1)>";
  if (opts.energy_threshold >= 1.0f)
    NNET3_ERR << "energy-threshold=" << opts.energy_threshold
              << " must be less than 1";
  if (!(opts.shrinkage_threshold > 0.0f))
    NNET3_ERR << "shrinkage-threshold=" << opts.shrinkage_threshold
              << " must be positive";
  Nnet edited(*nnet);  // so that an error leaves *nnet as it was
  std::vector<bool> factored(edited.NumComponents(), false);
  std::vector<std::unique_ptr<Component>> parts_a, parts_b;
  std::vector<int32_t> components;
  for (int32_t c :
       MatchingAffineComponents(edited, opts.name_pattern, "decomposing")) {
    std::unique_ptr<Component> a, b;
    const auto &affine =
        dynamic_cast<const AffineComponent &>(*edited.GetComponent(c));
    if (!FactorComponent(opts, edited.GetComponentName(c), affine, &a, &b))
      continue;
    factored[c] = true;
    components.push_back(c);
    parts_a.push_back(std::move(a));
    parts_b.push_back(std::move(b));
  }
  if (!components.empty()) {
    CheckNewNamesAreFree(edited, factored);
    for (size_t i = 0; i < components.size(); i++) {
      const std::string name = edited.GetComponentName(components[i]);
      edited.AddComponent(name + "_a", std::move(parts_a[i]));
      edited.AddComponent(name + "_b", std::move(parts_b[i]));
    }
    factored.resize(edited.NumComponents(), false);
    std::istringstream config(SplitNodesConfig(edited, factored));
    edited.ReadConfig(config, "apply-svd");
    edited.RemoveOrphanNodes();
    edited.RemoveOrphanComponents();
  }
  NNET3_LOG << "Decomposed " << components.size() << " components with SVD "
            << (opts.energy_threshold > 0.0f
                    ? "(energy-threshold " +
                          std::to_string(opts.energy_threshold) + ")"
                    : "dimension " + std::to_string(opts.bottleneck_dim));
  nnet->Swap(&edited);
  return static_cast<int32_t>(components.size());
}

int32_t ReduceRankOfComponents(const std::string &name_pattern, int32_t rank,
                               Nnet *nnet) {
  if (rank <= 0) NNET3_ERR << "rank=" << rank << " must be positive";
  int32_t num_changed = 0;
  for (int32_t c :
       MatchingAffineComponents(*nnet, name_pattern, "reducing rank of")) {
    auto *affine = dynamic_cast<AffineComponent *>(nnet->GetComponent(c));
    const std::string &name = nnet->GetComponentName(c);
    const int32_t in = affine->InputDim(), out = affine->OutputDim();
    if (in <= rank || out <= rank) {
      NNET3_WARN << "Not reducing rank of component " << name
                 << " with SVD to rank " << rank << " because its dimension is "
                 << in << " -> " << out;
      continue;
    }
    const AffineSvd svd(*affine);
    const double total = svd.Sum(svd.K(), 1.0), kept = svd.Sum(rank, 1.0);
    NNET3_LOG << "For component " << name
              << " singular value sum changed by reduce-rank command "
              << (total - kept) << " (from " << total << " to " << kept << ")";
    Matrix w(out, in);
    w.AddMatMat(1.0f, svd.ScaledU(rank, 1.0), Trans::kNo,
                svd.ScaledVt(rank, 0.0), Trans::kNo, 0.0f);
    const Vector bias(affine->BiasParams());
    affine->SetParams(bias, w);
    num_changed++;
  }
  NNET3_LOG << "Reduced rank of parameters of " << num_changed
            << " components.";
  return num_changed;
}

}  // namespace nnet3
