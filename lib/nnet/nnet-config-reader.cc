#include "nnet/nnet-config-reader.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "base/text-utils.h"
#include "nnet/component-registry.h"

namespace nnet3 {
namespace {

const char *const kLineTypes =
    "component, component-node, input-node, output-node or dim-range-node";

bool IsLineType(const std::string &t) {
  return t == "component" || t == "component-node" || t == "input-node" ||
         t == "output-node" || t == "dim-range-node";
}

std::string Join(const std::vector<std::string> &v, const char *sep) {
  std::string ans;
  for (size_t i = 0; i < v.size(); i++) ans += (i ? sep : "") + v[i];
  return ans;
}

// Rethrows `e` with "where: " in front of its message.
[[noreturn]] void Rethrow(const std::string &where, const UserError &e) {
  throw UserError(where + ": " + e.what(), e.where());
}

}  // namespace

NnetConfigReader::NnetConfigReader(Nnet *nnet, const std::string &filename)
    : nnet_(nnet), filename_(filename) {}

std::string NnetConfigReader::Where(int32_t line_number) const {
  std::ostringstream os;
  if (filename_.empty())
    os << "line " << line_number;
  else
    os << filename_ << ":" << line_number;
  return os.str();
}

std::string NnetConfigReader::FilePrefix() const {
  return filename_.empty() ? "" : filename_ + ": ";
}

void NnetConfigReader::Apply(const std::vector<NumberedLine> &lines,
                             bool warn_for_orphans) {
  std::vector<std::string> existing;
  nnet_->GetConfigLines(false, &existing);
  ParseLines(existing, lines);
  RemoveRedundantLines();
  initial_num_components_ = nnet_->NumComponents();
  nnet_->nodes_.clear();
  nnet_->node_names_.clear();
  node_index_.clear();
  node_where_.clear();
  for (int32_t pass = 0; pass < 2; pass++) {
    if (pass == 1) referable_ = nnet_->GetReferableNodeNames();
    for (Line &line : lines_) {
      try {
        ProcessLine(pass, &line);
      } catch (const UserError &e) {
        Rethrow(line.where, e);
      }
    }
  }
  CheckNetwork(warn_for_orphans);
}

void NnetConfigReader::ParseLines(const std::vector<std::string> &existing,
                                  const std::vector<NumberedLine> &lines) {
  lines_.clear();
  lines_.resize(existing.size() + lines.size());
  for (size_t i = 0; i < lines_.size(); i++) {
    Line &line = lines_[i];
    bool user = i >= existing.size();
    const std::string &text =
        user ? lines[i - existing.size()].text : existing[i];
    line.line_number = user ? lines[i - existing.size()].line_number : 0;
    line.where = user ? Where(line.line_number)
                      : FilePrefix() + "existing line '" + text + "'";
    if (!line.cfl.ParseLine(text))
      NNET3_ERR << line.where << ": cannot parse config line '" << text
                << "' (expected a line type followed by key=value pairs, "
                << "e.g. 'input-node name=input dim=40')";
    line.type = line.cfl.FirstToken();
    if (line.type.empty())
      NNET3_ERR << line.where << ": the line does not start with a line type "
                << "(expected " << kLineTypes << ")";
    if (!IsLineType(line.type))
      NNET3_ERR << line.where << ": invalid line type '" << line.type
                << "' (expected " << kLineTypes << ")";
    if (!line.cfl.GetValue("name", &line.name))
      NNET3_ERR << line.where << ": " << line.type
                << " line has no name=<name>";
    if (!IsValidName(line.name))
      NNET3_ERR << line.where << ": invalid name '" << line.name
                << "' (a name starts with a letter or '_' and has only "
                << "letters, digits, '_', '-' and '.')";
  }
}

// A node defined again replaces the earlier definition, which must come
// from the existing network; components may be defined once per file.
void NnetConfigReader::RemoveRedundantLines() {
  std::unordered_map<std::string, size_t> component_line, node_line;
  std::vector<bool> keep(lines_.size(), true);
  for (size_t i = 0; i < lines_.size(); i++) {
    const Line &line = lines_[i];
    auto &seen = line.type == "component" ? component_line : node_line;
    auto it = seen.find(line.name);
    if (it != seen.end()) {
      const Line &prev = lines_[it->second];
      if (prev.line_number != 0)
        NNET3_ERR << line.where << ": "
                  << (line.type == "component" ? "component" : "node")
                  << " name '" << line.name << "' is already defined at line "
                  << prev.line_number << " of this file (names must be unique)";
      keep[it->second] = false;
      it->second = i;
    } else {
      seen.emplace(line.name, i);
    }
  }
  std::vector<Line> kept;
  for (size_t i = 0; i < lines_.size(); i++)
    if (keep[i]) kept.push_back(std::move(lines_[i]));
  lines_.swap(kept);
}

void NnetConfigReader::ProcessLine(int32_t pass, Line *line) {
  if (line->type == "component") {
    if (pass == 0) ProcessComponent(line);
  } else if (line->type == "input-node") {
    if (pass == 0) ProcessInputNode(line);
  } else if (line->type == "component-node") {
    ProcessComponentNode(pass, line);
  } else if (line->type == "output-node") {
    ProcessOutputNode(pass, line);
  } else {
    ProcessDimRangeNode(pass, line);
  }
}

void NnetConfigReader::CheckUnused(const Line &line, const std::string &what) {
  if (!line.cfl.HasUnusedValues()) return;
  std::string unused = line.cfl.UnusedValues();
  bool several = std::count(unused.begin(), unused.end(), '=') > 1;
  NNET3_ERR << "unused value" << (several ? "s" : "") << " '" << unused
            << "' (not " << (several ? "keys" : "a key") << " of " << what
            << ": misspelled?)";
}

int32_t NnetConfigReader::AddNode(NodeType type, const std::string &name,
                                  const Line &line) {
  auto it = node_index_.find(name);
  if (it != node_index_.end())
    NNET3_ERR << "node name '" << name << "' is already used by "
              << node_where_[it->second]
              << " (component-node X also defines a hidden node X_input)";
  int32_t index = nnet_->NumNodes();
  nnet_->nodes_.emplace_back(type);
  nnet_->node_names_.push_back(name);
  node_index_.emplace(name, index);
  node_where_.push_back(line.where);
  return index;
}

void NnetConfigReader::ProcessComponent(Line *line) {
  std::string type;
  if (!line->cfl.GetValue("type", &type))
    NNET3_ERR << "component line needs type=<ComponentType>, e.g. "
              << "type=AffineComponent";
  std::unique_ptr<Component> c = Component::NewComponentOfType(type);
  if (!c)
    NNET3_ERR << "unknown component type '" << type
              << "' (known types: " << Join(RegisteredComponentTypes(), ", ")
              << ")";
  c->InitFromConfig(&line->cfl);
  CheckUnused(*line, type + " lines");
  int32_t index = nnet_->GetComponentIndex(line->name);
  if (index != -1) {
    // Redefining a component of the existing network replaces it in place.
    NNET3_ASSERT(index < initial_num_components_);
    nnet_->components_[index] = std::move(c);
  } else {
    nnet_->components_.push_back(std::move(c));
    nnet_->component_names_.push_back(line->name);
  }
}

void NnetConfigReader::ProcessInputNode(Line *line) {
  int32_t dim;
  if (!line->cfl.GetValue("dim", &dim))
    NNET3_ERR << "input-node line needs dim=<dimension>, e.g. "
              << "'input-node name=input dim=40'";
  CheckUnused(*line, "input-node lines (they take name and dim)");
  if (dim <= 0) NNET3_ERR << "input-node dim must be > 0, got " << dim;
  line->node = AddNode(kInput, line->name, *line);
  nnet_->nodes_[line->node].dim = dim;
}

void NnetConfigReader::ProcessComponentNode(int32_t pass, Line *line) {
  if (pass == 0) {
    AddNode(kDescriptor, line->name + "_input", *line);
    line->node = AddNode(kComponent, line->name, *line);
    return;
  }
  std::string component, input;
  if (!line->cfl.GetValue("component", &component))
    NNET3_ERR << "component-node line needs component=<component name>";
  if (!line->cfl.GetValue("input", &input))
    NNET3_ERR << "component-node line needs input=<descriptor>, e.g. "
              << "input=Append(Offset(input, -1), input)";
  CheckUnused(*line,
              "component-node lines (they take name, component and input)");
  int32_t c = nnet_->GetComponentIndex(component);
  if (c == -1)
    NNET3_ERR << "component-node '" << line->name
              << "': there is no component '" << component
              << "' (define it with a 'component name=" << component
              << " type=...' line)";
  nnet_->nodes_[line->node].component_index = c;
  ParseDescriptor(input, &nnet_->nodes_[line->node - 1].descriptor);
}

void NnetConfigReader::ProcessOutputNode(int32_t pass, Line *line) {
  if (pass == 0) {
    line->node = AddNode(kDescriptor, line->name, *line);
    return;
  }
  std::string input, objective = "linear";
  if (!line->cfl.GetValue("input", &input))
    NNET3_ERR << "output-node line needs input=<descriptor>, e.g. "
              << "input=final_affine";
  line->cfl.GetValue("objective", &objective);
  CheckUnused(*line, "output-node lines (they take name, input and objective)");
  NetworkNode &node = nnet_->nodes_[line->node];
  if (objective == "linear")
    node.objective_type = kLinear;
  else if (objective == "quadratic")
    node.objective_type = kQuadratic;
  else
    NNET3_ERR << "invalid objective '" << objective
              << "' (expected linear or quadratic)";
  ParseDescriptor(input, &node.descriptor);
}

void NnetConfigReader::ProcessDimRangeNode(int32_t pass, Line *line) {
  if (pass == 0) {
    line->node = AddNode(kDimRange, line->name, *line);
    return;
  }
  std::string input_node;
  int32_t dim, dim_offset;
  if (!line->cfl.GetValue("input-node", &input_node))
    NNET3_ERR << "dim-range-node line needs input-node=<node name>";
  if (!line->cfl.GetValue("dim", &dim))
    NNET3_ERR << "dim-range-node line needs dim=<dimension>";
  if (!line->cfl.GetValue("dim-offset", &dim_offset))
    NNET3_ERR << "dim-range-node line needs dim-offset=<first dimension>";
  CheckUnused(*line,
              "dim-range-node lines (they take name, input-node, "
              "dim-offset and dim)");
  auto it = node_index_.find(input_node);
  if (it == node_index_.end())
    NNET3_ERR << "dim-range-node '" << line->name << "': input-node '"
              << input_node << "' is not defined";
  NodeType t = nnet_->nodes_[it->second].node_type;
  if (t != kInput && t != kComponent)
    NNET3_ERR << "dim-range-node '" << line->name << "': input-node '"
              << input_node << "' must be an input-node or a component-node";
  NetworkNode &node = nnet_->nodes_[line->node];
  node.node_index = it->second;
  node.dim = dim;
  node.dim_offset = dim_offset;
}

void NnetConfigReader::ParseDescriptor(const std::string &text,
                                       Descriptor *descriptor) const {
  try {
    descriptor->Parse(referable_, text);
  } catch (const UserError &e) {
    // The parser calls a name it cannot use an "unknown node 'x'"; say why.
    std::string msg = e.what();
    const std::string key = "unknown node '";
    size_t pos = msg.find(key);
    if (pos == std::string::npos) throw;
    size_t begin = pos + key.size(), end = msg.find('\'', begin);
    std::string name = msg.substr(begin, end - begin);
    auto it = node_index_.find(name);
    if (it == node_index_.end())
      NNET3_ERR << "undefined node '" << name << "' in input=" << text
                << " (no input-node, component-node or dim-range-node has "
                << "that name)";
    NNET3_ERR << "node '" << name << "' in input=" << text
              << " is an output node or a component-node's hidden input node;"
              << " descriptors may refer only to input-node, component-node "
              << "and dim-range-node names";
  }
}

void NnetConfigReader::CheckNetwork(bool warn_for_orphans) const {
  int32_t num_inputs = 0, num_outputs = 0;
  for (int32_t n = 0; n < nnet_->NumNodes(); n++) {
    try {
      nnet_->CheckNode(n);
    } catch (const UserError &e) {
      Rethrow(node_where_[n], e);
    }
    if (nnet_->IsInputNode(n)) num_inputs++;
    if (nnet_->IsOutputNode(n)) num_outputs++;
  }
  if (num_inputs == 0)
    NNET3_ERR << FilePrefix() << "the network has no input node (add a line "
              << "like 'input-node name=input dim=40')";
  if (num_outputs == 0)
    NNET3_ERR << FilePrefix() << "the network has no output node (add a line "
              << "like 'output-node name=output input=final_affine')";
  nnet_->Check(warn_for_orphans);  // the rest, and the orphan warnings
}

}  // namespace nnet3
