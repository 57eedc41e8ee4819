#include "nnet/nnet.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "base/text-utils.h"
#include "nnet/nnet-config-reader.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {

int32_t NetworkNode::Dim(const Nnet &nnet) const {
  switch (node_type) {
    case kInput:
    case kDimRange:
      return dim;
    case kDescriptor:
      return descriptor.Dim(
          [&nnet](int32_t n) { return nnet.GetNode(n).Dim(nnet); });
    case kComponent:
      return nnet.GetComponent(component_index)->OutputDim();
    default:
      NNET3_INTERNAL_ERR << "NetworkNode::Dim() on a node of type kNone";
  }
  return 0;
}

// ------------------------------------------------------- copy and swap

Nnet::Nnet(const Nnet &other)
    : component_names_(other.component_names_),
      nodes_(other.nodes_),
      node_names_(other.node_names_) {
  components_.reserve(other.components_.size());
  for (const auto &c : other.components_) components_.push_back(c->Copy());
}

Nnet &Nnet::operator=(const Nnet &other) {
  if (this != &other) {
    Nnet tmp(other);
    Swap(&tmp);
  }
  return *this;
}

void Nnet::Swap(Nnet *other) {
  components_.swap(other->components_);
  component_names_.swap(other->component_names_);
  nodes_.swap(other->nodes_);
  node_names_.swap(other->node_names_);
}

// ------------------------------------------------------------ accessors

const NetworkNode &Nnet::GetNode(int32_t node) const {
  NNET3_ASSERT(node >= 0 && node < NumNodes());
  return nodes_[node];
}

NetworkNode &Nnet::GetNode(int32_t node) {
  NNET3_ASSERT(node >= 0 && node < NumNodes());
  return nodes_[node];
}

const std::string &Nnet::GetNodeName(int32_t node) const {
  NNET3_ASSERT(node >= 0 && node < NumNodes());
  return node_names_[node];
}

int32_t Nnet::GetNodeIndex(const std::string &name) const {
  for (size_t i = 0; i < node_names_.size(); i++)
    if (node_names_[i] == name) return static_cast<int32_t>(i);
  return -1;
}

void Nnet::SetNodeName(int32_t node, const std::string &new_name) {
  if (node < 0 || node >= NumNodes())
    NNET3_ERR << "Cannot rename node " << node << ": there are only "
              << NumNodes() << " nodes";
  if (!IsValidName(new_name))
    NNET3_ERR << "Cannot rename node '" << node_names_[node] << "' to '"
              << new_name << "': not a valid name (use letters, digits, "
              << "'_', '-' and '.', starting with a letter or '_')";
  if (GetNodeIndex(new_name) != -1)
    NNET3_ERR << "Cannot rename node '" << node_names_[node] << "' to '"
              << new_name << "': a node with that name already exists";
  if (IsComponentNode(node)) {
    // Keep the hidden "<name>_input" node in step, as ReadConfig names it.
    std::string input_name = new_name + "_input";
    int32_t other = GetNodeIndex(input_name);
    if (other != -1 && other != node - 1)
      NNET3_ERR << "Cannot rename component-node '" << node_names_[node]
                << "' to '" << new_name << "': its input node would be called '"
                << input_name << "', which is already a node name";
    node_names_[node - 1] = input_name;
  }
  node_names_[node] = new_name;
}

bool Nnet::IsInputNode(int32_t node) const {
  return GetNode(node).node_type == kInput;
}

bool Nnet::IsOutputNode(int32_t node) const {
  return GetNode(node).node_type == kDescriptor &&
         (node + 1 == NumNodes() || nodes_[node + 1].node_type != kComponent);
}

bool Nnet::IsComponentInputNode(int32_t node) const {
  return GetNode(node).node_type == kDescriptor && node + 1 < NumNodes() &&
         nodes_[node + 1].node_type == kComponent;
}

bool Nnet::IsDescriptorNode(int32_t node) const {
  return GetNode(node).node_type == kDescriptor;
}

bool Nnet::IsComponentNode(int32_t node) const {
  return GetNode(node).node_type == kComponent;
}

bool Nnet::IsDimRangeNode(int32_t node) const {
  return GetNode(node).node_type == kDimRange;
}

int32_t Nnet::InputDim(const std::string &name) const {
  int32_t n = GetNodeIndex(name);
  if (n == -1 || !IsInputNode(n)) return -1;
  return nodes_[n].dim;
}

int32_t Nnet::OutputDim(const std::string &name) const {
  int32_t n = GetNodeIndex(name);
  if (n == -1 || !IsOutputNode(n)) return -1;
  return nodes_[n].Dim(*this);
}

const Component *Nnet::GetComponent(int32_t c) const {
  NNET3_ASSERT(c >= 0 && c < NumComponents());
  return components_[c].get();
}

Component *Nnet::GetComponent(int32_t c) {
  NNET3_ASSERT(c >= 0 && c < NumComponents());
  return components_[c].get();
}

const std::string &Nnet::GetComponentName(int32_t c) const {
  NNET3_ASSERT(c >= 0 && c < NumComponents());
  return component_names_[c];
}

int32_t Nnet::GetComponentIndex(const std::string &name) const {
  for (size_t i = 0; i < component_names_.size(); i++)
    if (component_names_[i] == name) return static_cast<int32_t>(i);
  return -1;
}

int32_t Nnet::AddComponent(const std::string &name,
                           std::unique_ptr<Component> component) {
  NNET3_ASSERT(component != nullptr);
  if (!IsToken(name))
    NNET3_ERR << "Invalid component name '" << name
              << "' (empty or has spaces)";
  if (GetComponentIndex(name) != -1)
    NNET3_ERR << "A component named '" << name << "' already exists";
  components_.push_back(std::move(component));
  component_names_.push_back(name);
  return NumComponents() - 1;
}

void Nnet::SetComponent(int32_t c, std::unique_ptr<Component> component) {
  NNET3_ASSERT(c >= 0 && c < NumComponents() && component != nullptr);
  NNET3_ASSERT(component->InputDim() == components_[c]->InputDim() &&
               component->OutputDim() == components_[c]->OutputDim());
  components_[c] = std::move(component);
}

int32_t Nnet::Modulus() const {
  int32_t ans = 1;
  for (const NetworkNode &node : nodes_)
    if (node.node_type == kDescriptor)
      ans = std::lcm(ans, node.descriptor.Modulus());
  return ans;
}

std::vector<std::string> Nnet::GetReferableNodeNames() const {
  std::vector<std::string> names(node_names_);
  for (size_t i = 0; i < nodes_.size(); i++)
    if (nodes_[i].node_type == kDescriptor) names[i] = "**";
  return names;
}

// ---------------------------------------------------------- config lines

std::string Nnet::GetAsConfigLine(int32_t n, bool include_dim) const {
  std::ostringstream os;
  const NetworkNode &node = GetNode(n);
  const std::string &name = node_names_[n];
  switch (node.node_type) {
    case kInput:
      os << "input-node name=" << name << " dim=" << node.dim;
      break;
    case kDescriptor:
      NNET3_ASSERT(IsOutputNode(n));
      os << "output-node name=" << name << " input=";
      node.descriptor.WriteConfig(os, node_names_);
      if (include_dim) os << " dim=" << node.Dim(*this);
      os << " objective="
         << (node.objective_type == kLinear ? "linear" : "quadratic");
      break;
    case kComponent:
      NNET3_ASSERT(n > 0 && nodes_[n - 1].node_type == kDescriptor);
      os << "component-node name=" << name
         << " component=" << GetComponentName(node.component_index)
         << " input=";
      nodes_[n - 1].descriptor.WriteConfig(os, node_names_);
      if (include_dim)
        os << " input-dim=" << nodes_[n - 1].Dim(*this)
           << " output-dim=" << node.Dim(*this);
      break;
    case kDimRange:
      os << "dim-range-node name=" << name
         << " input-node=" << GetNodeName(node.node_index)
         << " dim-offset=" << node.dim_offset << " dim=" << node.dim;
      break;
    default:
      NNET3_INTERNAL_ERR << "Node '" << name << "' has type kNone";
  }
  return os.str();
}

void Nnet::GetConfigLines(bool include_dim,
                          std::vector<std::string> *lines) const {
  lines->clear();
  for (int32_t n = 0; n < NumNodes(); n++)
    if (!IsComponentInputNode(n))
      lines->push_back(GetAsConfigLine(n, include_dim));
}

void Nnet::ReadConfig(std::istream &config_file, const std::string &filename) {
  std::vector<NumberedLine> lines;
  ReadConfigLines(config_file, &lines);
  Nnet tmp(*this);
  NnetConfigReader reader(&tmp, filename);
  reader.Apply(lines);
  Swap(&tmp);
}

// --------------------------------------------------------------- checks

void Nnet::CheckNode(int32_t n) const {
  const NetworkNode &node = nodes_[n];
  const std::string &name = node_names_[n];
  auto node_dim = [this](int32_t i) { return nodes_[i].Dim(*this); };
  switch (node.node_type) {
    case kInput:
      if (node.dim <= 0)
        NNET3_ERR << "input-node '" << name << "' has dim " << node.dim
                  << " (must be > 0)";
      break;
    case kDescriptor: {
      std::vector<int32_t> deps;
      node.descriptor.GetNodeDependencies(&deps);
      for (int32_t d : deps) {
        NNET3_ASSERT(d >= 0 && d < NumNodes());
        NodeType t = nodes_[d].node_type;
        if (t != kInput && t != kComponent && t != kDimRange)
          NNET3_ERR << "Node '" << name << "' refers to node '"
                    << node_names_[d] << "', which is not an input, "
                    << "component or dim-range node";
      }
      node.descriptor.Dim(node_dim);  // throws for inconsistent dims
      break;
    }
    case kComponent: {
      NNET3_ASSERT(n > 0 && nodes_[n - 1].node_type == kDescriptor);
      NNET3_ASSERT(node.component_index >= 0 &&
                   node.component_index < NumComponents());
      const Component &c = *components_[node.component_index];
      int32_t input_dim = nodes_[n - 1].descriptor.Dim(node_dim);
      if (input_dim != c.InputDim()) {
        std::ostringstream desc;
        nodes_[n - 1].descriptor.WriteConfig(desc, node_names_);
        NNET3_ERR << "component-node '" << name << "': its input " << desc.str()
                  << " has dim " << input_dim << " but component '"
                  << component_names_[node.component_index] << "' (" << c.Type()
                  << ") has input-dim " << c.InputDim();
      }
      break;
    }
    case kDimRange: {
      int32_t src = node.node_index;
      NNET3_ASSERT(src >= 0 && src < NumNodes());
      NodeType t = nodes_[src].node_type;
      if (t != kInput && t != kComponent)
        NNET3_ERR << "dim-range-node '" << name << "': input-node '"
                  << node_names_[src]
                  << "' must be an input-node or a component-node";
      int32_t input_dim = nodes_[src].Dim(*this);
      if (!(node.dim > 0 && node.dim_offset >= 0 &&
            node.dim + node.dim_offset <= input_dim))
        NNET3_ERR << "dim-range-node '" << name
                  << "': dim-offset=" << node.dim_offset << " dim=" << node.dim
                  << " is not a range inside node '" << node_names_[src]
                  << "' of dim " << input_dim
                  << " (need dim > 0, dim-offset >= 0, dim + dim-offset <= "
                  << input_dim << ")";
      break;
    }
    default:
      NNET3_INTERNAL_ERR << "Node '" << name << "' has type kNone";
  }
}

void Nnet::Check(bool warn_for_orphans) const {
  NNET3_ASSERT(nodes_.size() == node_names_.size() &&
               components_.size() == component_names_.size());
  std::map<std::string, int32_t> seen;
  int32_t num_inputs = 0, num_outputs = 0;
  for (int32_t n = 0; n < NumNodes(); n++) {
    if (!seen.emplace(node_names_[n], n).second)
      NNET3_ERR << "Two nodes are called '" << node_names_[n] << "'";
    CheckNode(n);
    if (IsInputNode(n)) num_inputs++;
    if (IsOutputNode(n)) num_outputs++;
  }
  seen.clear();
  for (int32_t c = 0; c < NumComponents(); c++)
    if (!seen.emplace(component_names_[c], c).second)
      NNET3_ERR << "Two components are called '" << component_names_[c] << "'";
  if (num_inputs == 0)
    NNET3_ERR << "The network has no input node (add a line like "
              << "'input-node name=input dim=40')";
  if (num_outputs == 0)
    NNET3_ERR << "The network has no output node (add a line like "
              << "'output-node name=output input=<node>')";
  if (!warn_for_orphans) return;
  std::vector<int32_t> orphans;
  FindOrphanComponents(*this, &orphans);
  for (int32_t c : orphans)
    NNET3_WARN << "Component " << component_names_[c]
               << " is never used by any node.";
  FindOrphanNodes(*this, &orphans);
  for (int32_t n : orphans)
    if (!IsComponentInputNode(n))
      NNET3_WARN << "Node " << node_names_[n]
                 << " is never used to compute any output.";
}

// ------------------------------------------------------------ model I/O

void Nnet::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<Nnet3>");
  os << '\n';
  std::vector<std::string> lines;
  GetConfigLines(false, &lines);
  for (const std::string &line : lines) os << line << '\n';
  os << '\n';  // an empty line ends the config section
  WriteToken(os, binary, "<NumComponents>");
  WriteBasicType(os, binary, NumComponents());
  if (!binary) os << '\n';
  for (int32_t c = 0; c < NumComponents(); c++) {
    WriteToken(os, binary, "<ComponentName>");
    WriteToken(os, binary, component_names_[c]);
    components_[c]->Write(os, binary);
    if (!binary) os << '\n';
  }
  WriteToken(os, binary, "</Nnet3>");
}

namespace {

// Reads the config section: the rest of the <Nnet3> line, then lines up to
// an empty one. Line numbers are those of the model file (<Nnet3> is 1).
void ReadConfigSection(std::istream &is, std::vector<NumberedLine> *lines) {
  std::string line;
  std::getline(is, line);
  if (!(line.empty() || line == "\r"))
    NNET3_ERR << "Expected a newline after <Nnet3>, found '" << line << "'";
  int32_t line_number = 1;
  while (true) {
    if (!std::getline(is, line))
      NNET3_ERR << "The model file ends inside its config section (no empty "
                << "line after the node lines): truncated file?";
    line_number++;
    if (line.empty() || line == "\r") break;
    std::istringstream one(line);
    std::vector<NumberedLine> parsed;
    ReadConfigLines(one, &parsed);
    for (NumberedLine &l : parsed) {
      l.line_number = line_number;
      lines->push_back(std::move(l));
    }
  }
}

}  // namespace

void Nnet::Read(std::istream &is, bool binary) {
  // Kaldi's Nnet::Read also takes a .mdl; the acoustic-model wrapper is
  // in lib/train, so programs read models with ReadNnetFromRawOrAm.
  if (PeekToken(is, binary) == 'T')
    NNET3_ERR << "This is a Kaldi acoustic model (it starts with "
              << "<TransitionModel>), where a raw network was expected; "
              << "extract the network with "
              << "'nnet3-am-copy --raw=true in.mdl out.raw'";
  ExpectToken(is, binary, "<Nnet3>");
  std::vector<NumberedLine> config_lines;
  ReadConfigSection(is, &config_lines);
  ExpectToken(is, binary, "<NumComponents>");
  int32_t num_components;
  try {
    ReadBasicType(is, binary, &num_components);
  } catch (const UserError &e) {
    throw UserError(std::string("Reading <NumComponents>: ") + e.what(),
                    e.where());
  }
  if (num_components < 0 || num_components >= 100000)
    NNET3_ERR << "Invalid <NumComponents> " << num_components
              << " (expected 0 to 99999): corrupted model file?";
  Nnet tmp;
  for (int32_t c = 0; c < num_components; c++) {
    std::string name = "?";
    try {
      ExpectToken(is, binary, "<ComponentName>");
      ReadToken(is, binary, &name);
      std::unique_ptr<Component> comp = Component::ReadNew(is, binary);
      tmp.components_.push_back(std::move(comp));
      tmp.component_names_.push_back(name);
    } catch (const UserError &e) {
      std::ostringstream context;
      context << "Reading component " << (c + 1) << " of " << num_components;
      if (name != "?") context << " ('" << name << "')";
      throw UserError(context.str() + ": " + e.what(), e.where());
    }
  }
  ExpectToken(is, binary, "</Nnet3>");
  NnetConfigReader reader(&tmp, "");
  reader.Apply(config_lines);
  Swap(&tmp);
}

std::string Nnet::Info() const {
  std::ostringstream os;
  os << "num-parameters: " << NumParameters(*this) << "\n";
  os << "modulus: " << Modulus() << "\n";
  std::vector<std::string> lines;
  GetConfigLines(true, &lines);
  for (const std::string &line : lines) os << line << "\n";
  for (int32_t c = 0; c < NumComponents(); c++)
    os << "component name=" << component_names_[c]
       << " type=" << components_[c]->Info() << "\n";
  return os.str();
}

// ----------------------------------------------------- structural edits

void Nnet::RemoveOrphanNodes(bool remove_orphan_inputs) {
  std::vector<int32_t> orphans, to_remove;
  FindOrphanNodes(*this, &orphans);
  for (int32_t n : orphans)
    if (remove_orphan_inputs || !IsInputNode(n)) to_remove.push_back(n);
  if (!to_remove.empty())
    NNET3_LOG << "Removing " << to_remove.size() << " orphan nodes.";
  RemoveSomeNodes(to_remove);
}

void Nnet::RemoveOrphanComponents() {
  std::vector<int32_t> orphans;
  FindOrphanComponents(*this, &orphans);
  if (orphans.empty()) return;
  NNET3_LOG << "Removing " << orphans.size() << " orphan components.";
  std::vector<int32_t> old2new(NumComponents(), 0);
  for (int32_t c : orphans) old2new[c] = -1;
  std::vector<std::unique_ptr<Component>> components;
  std::vector<std::string> names;
  for (int32_t c = 0; c < NumComponents(); c++) {
    if (old2new[c] == -1) continue;
    old2new[c] = static_cast<int32_t>(components.size());
    components.push_back(std::move(components_[c]));
    names.push_back(component_names_[c]);
  }
  for (NetworkNode &node : nodes_)
    if (node.node_type == kComponent) {
      node.component_index = old2new[node.component_index];
      NNET3_ASSERT(node.component_index >= 0);
    }
  components_.swap(components);
  component_names_.swap(names);
}

void Nnet::RemoveSomeNodes(const std::vector<int32_t> &nodes_to_remove) {
  if (nodes_to_remove.empty()) return;
  std::vector<bool> removed(NumNodes(), false);
  for (int32_t n : nodes_to_remove) {
    NNET3_ASSERT(n >= 0 && n < NumNodes());
    removed[n] = true;
    // A component node and its input node go together.
    if (IsComponentNode(n)) removed[n - 1] = true;
    if (IsComponentInputNode(n)) removed[n + 1] = true;
  }
  std::vector<std::string> lines;
  for (int32_t n = 0; n < NumNodes(); n++) {
    if (removed[n]) continue;
    std::vector<int32_t> deps;
    const NetworkNode &node = nodes_[n];
    if (node.node_type == kDescriptor)
      node.descriptor.GetNodeDependencies(&deps);
    if (node.node_type == kDimRange) deps.push_back(node.node_index);
    for (int32_t d : deps)
      if (removed[d])
        NNET3_ERR << "Cannot remove node '" << node_names_[d] << "': node '"
                  << (IsComponentInputNode(n) ? node_names_[n + 1]
                                              : node_names_[n])
                  << "' uses it";
    if (!IsComponentInputNode(n)) lines.push_back(GetAsConfigLine(n, false));
  }
  std::vector<NumberedLine> numbered(lines.size());
  for (size_t i = 0; i < lines.size(); i++) {
    numbered[i].text = lines[i];
    numbered[i].line_number = static_cast<int32_t>(i + 1);
  }
  Nnet tmp;
  tmp.components_.swap(components_);
  tmp.component_names_.swap(component_names_);
  NnetConfigReader reader(&tmp, "the remaining nodes");
  try {
    reader.Apply(numbered, false);
  } catch (...) {
    components_.swap(tmp.components_);
    component_names_.swap(tmp.component_names_);
    throw;
  }
  Swap(&tmp);
}

void Nnet::ResetGenerators(uint64_t seed) {
  for (int32_t c = 0; c < NumComponents(); c++)
    components_[c]->ResetGenerator(seed + 1000003u * static_cast<uint64_t>(c));
}

}  // namespace nnet3
