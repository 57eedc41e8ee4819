// ReadEditConfig: the edits config of nnet3-copy (reference 1.6). Each
// directive reads its keys, rejects unused ones, and only then changes the
// network, so a bad line changes nothing.
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "nnet/components/affine-components.h"
#include "nnet/nnet-svd.h"
#include "nnet/nnet-utils.h"
#include "util/config-line.h"

namespace nnet3 {
namespace {

const char *const kDirectives =
    "convert-to-fixed-affine, remove-orphan-nodes, remove-orphan-components, "
    "remove-orphans, set-learning-rate, set-learning-rate-factor, "
    "rename-node, remove-output-nodes, set-dropout-proportion, apply-svd "
    "or reduce-rank";

void CheckUnused(const ConfigLine &cfl, const std::string &keys) {
  if (cfl.HasUnusedValues())
    NNET3_ERR << "could not interpret '" << cfl.UnusedValues() << "' ("
              << cfl.FirstToken() << " takes " << keys << ")";
}

template <class T>
T GetRequired(ConfigLine *cfl, const std::string &key, const char *example) {
  T value;
  if (!cfl->GetValue(key, &value))
    NNET3_ERR << cfl->FirstToken() << " needs " << key << "=" << example;
  return value;
}

void ConvertToFixedAffine(ConfigLine *cfl, Nnet *nnet) {
  std::string pattern = "*";  // matches component names, not node names
  cfl->GetValue("name", &pattern);
  CheckUnused(*cfl, "name=<pattern>");
  int32_t num_changed = 0;
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    auto *affine = dynamic_cast<AffineComponent *>(nnet->GetComponent(c));
    if (affine == nullptr ||
        !NameMatchesPattern(nnet->GetComponentName(c), pattern))
      continue;
    nnet->SetComponent(c, std::make_unique<FixedAffineComponent>(*affine));
    num_changed++;
  }
  NNET3_LOG << "Converted " << num_changed
            << " components to FixedAffineComponent.";
}

void RemoveOrphans(ConfigLine *cfl, bool nodes, bool components, Nnet *nnet) {
  bool remove_orphan_inputs = false;
  if (nodes) cfl->GetValue("remove-orphan-inputs", &remove_orphan_inputs);
  CheckUnused(*cfl, nodes ? "remove-orphan-inputs=true|false" : "no keys");
  if (nodes) nnet->RemoveOrphanNodes(remove_orphan_inputs);
  if (components) nnet->RemoveOrphanComponents();
}

void SetLearningRates(ConfigLine *cfl, bool factor, Nnet *nnet) {
  std::string pattern = "*";
  cfl->GetValue("name", &pattern);
  const char *key = factor ? "learning-rate-factor" : "learning-rate";
  float value = GetRequired<float>(cfl, key, "<value>");
  CheckUnused(*cfl, std::string("name=<pattern> and ") + key);
  if (value < 0.0f) NNET3_ERR << key << "=" << value << " must be >= 0";
  int32_t num_set = 0;
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    auto *u = dynamic_cast<UpdatableComponent *>(nnet->GetComponent(c));
    if (u == nullptr || !NameMatchesPattern(nnet->GetComponentName(c), pattern))
      continue;
    if (factor)
      u->SetLearningRateFactor(value);
    else
      u->SetUnderlyingLearningRate(value);
    num_set++;
  }
  NNET3_LOG << "Set learning rate" << (factor ? " factors" : "s") << " for "
            << num_set << " components.";
}

void RenameNode(ConfigLine *cfl, Nnet *nnet) {
  std::string old_name = GetRequired<std::string>(cfl, "old-name", "<node>");
  std::string new_name = GetRequired<std::string>(cfl, "new-name", "<node>");
  CheckUnused(*cfl, "old-name and new-name");
  int32_t n = nnet->GetNodeIndex(old_name);
  if (n == -1 || nnet->IsComponentInputNode(n))
    NNET3_ERR << "cannot rename node '" << old_name << "' to '" << new_name
              << "': there is no node called '" << old_name << "'";
  nnet->SetNodeName(n, new_name);
}

void RemoveOutputNodes(ConfigLine *cfl, Nnet *nnet) {
  std::string pattern = GetRequired<std::string>(cfl, "name", "<pattern>");
  CheckUnused(*cfl, "name=<pattern>");
  std::vector<int32_t> to_remove;
  int32_t remaining = 0;
  for (int32_t n = 0; n < nnet->NumNodes(); n++) {
    if (!nnet->IsOutputNode(n)) continue;
    if (NameMatchesPattern(nnet->GetNodeName(n), pattern))
      to_remove.push_back(n);
    else
      remaining++;
  }
  if (remaining == 0)
    NNET3_ERR << "name=" << pattern << " matches every output node; a "
              << "network needs at least one output";
  NNET3_LOG << "Removing " << to_remove.size() << " output nodes.";
  nnet->RemoveSomeNodes(to_remove);
}

void SetDropoutProportions(ConfigLine *cfl, Nnet *nnet) {
  std::string pattern = "*";
  cfl->GetValue("name", &pattern);
  float proportion = GetRequired<float>(cfl, "proportion", "<value>");
  CheckUnused(*cfl, "name=<pattern> and proportion");
  if (!(proportion >= 0.0f && proportion < 1.0f))
    NNET3_ERR << "proportion=" << proportion << " must be in [0, 1)";
  int32_t num_set = 0;
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    if (!NameMatchesPattern(nnet->GetComponentName(c), pattern)) continue;
    if (SetComponentDropoutProportion(proportion, nnet->GetComponent(c)))
      num_set++;
  }
  NNET3_LOG << "Set dropout proportions for " << num_set << " components.";
}

void ApplySvd(ConfigLine *cfl, Nnet *nnet) {
  ApplySvdOptions opts;
  opts.name_pattern = GetRequired<std::string>(cfl, "name", "<pattern>");
  cfl->GetValue("bottleneck-dim", &opts.bottleneck_dim);
  cfl->GetValue("energy-threshold", &opts.energy_threshold);
  cfl->GetValue("shrinkage-threshold", &opts.shrinkage_threshold);
  CheckUnused(*cfl,
              "name=<pattern>, bottleneck-dim, energy-threshold and "
              "shrinkage-threshold");
  ApplySvdToComponents(opts, nnet);
}

void ReduceRank(ConfigLine *cfl, Nnet *nnet) {
  std::string pattern = GetRequired<std::string>(cfl, "name", "<pattern>");
  int32_t rank = GetRequired<int32_t>(cfl, "rank", "<dim>");
  CheckUnused(*cfl, "name=<pattern> and rank");
  ReduceRankOfComponents(pattern, rank, nnet);
}

void ApplyEditLine(const std::string &text, Nnet *nnet) {
  ConfigLine cfl;
  if (!cfl.ParseLine(text))
    NNET3_ERR << "cannot parse edit line '" << text
              << "' (expected a directive followed by key=value pairs)";
  const std::string &directive = cfl.FirstToken();
  if (directive == "convert-to-fixed-affine") {
    ConvertToFixedAffine(&cfl, nnet);
  } else if (directive == "remove-orphan-nodes") {
    RemoveOrphans(&cfl, true, false, nnet);
  } else if (directive == "remove-orphan-components") {
    RemoveOrphans(&cfl, false, true, nnet);
  } else if (directive == "remove-orphans") {
    RemoveOrphans(&cfl, true, true, nnet);
  } else if (directive == "set-learning-rate") {
    SetLearningRates(&cfl, false, nnet);
  } else if (directive == "set-learning-rate-factor") {
    SetLearningRates(&cfl, true, nnet);
  } else if (directive == "rename-node") {
    RenameNode(&cfl, nnet);
  } else if (directive == "remove-output-nodes") {
    RemoveOutputNodes(&cfl, nnet);
  } else if (directive == "set-dropout-proportion") {
    SetDropoutProportions(&cfl, nnet);
  } else if (directive == "apply-svd") {
    ApplySvd(&cfl, nnet);
  } else if (directive == "reduce-rank") {
    ReduceRank(&cfl, nnet);
  } else {
    NNET3_ERR << "unknown directive '" << directive << "' (expected "
              << kDirectives << ")";
  }
}

}  // namespace

void ReadEditConfig(std::istream &edit_config, const std::string &filename,
                    Nnet *nnet) {
  std::vector<NumberedLine> lines;
  ReadConfigLines(edit_config, &lines);
  for (const NumberedLine &line : lines) {
    try {
      ApplyEditLine(line.text, nnet);
    } catch (const UserError &e) {
      std::ostringstream where;
      where << filename << ":" << line.line_number << ": ";
      throw UserError(where.str() + e.what(), e.where());
    }
  }
}

void ReadEditConfig(std::istream &edit_config, Nnet *nnet) {
  ReadEditConfig(edit_config, "edits config", nnet);
}

}  // namespace nnet3
