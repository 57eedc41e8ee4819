// Nnet: a neural network as Kaldi's nnet3 holds it — a list of named
// Components and a graph of named nodes glued together by Descriptors.
//
//   Nnet nnet;
//   std::ifstream is("nnet.config");
//   nnet.ReadConfig(is, "nnet.config");       // UserError "nnet.config:3: ..."
//   nnet.Write(os, binary);                   // Kaldi's model format
//   Nnet copy(nnet);                          // deep copy
//   std::cout << nnet.Info();                 // what nnet3-info prints
//
// Nodes (reference 1.2): kInput (an input-node, with a dim), kDescriptor (an
// output-node, or the hidden `<name>_input` node that feeds a component-node
// and always comes right before it), kComponent (applies components_[i] to
// the preceding descriptor node) and kDimRange (a column range of an input
// or component node). Node names and component names are separate
// namespaces.
//
// ReadConfig applies a config file to the network as Kaldi does (reference
// 1.3): the existing nodes are regenerated as config lines, the file's
// lines are appended, a node defined again replaces the earlier one (and
// moves to the new position), a component defined again is replaced in
// place, and two passes make forward references legal. Every error is one
// line naming the file and the line ("nnet.config:5: ...").
//
// Guarantees after ReadConfig / Read: Check() passes — every descriptor
// refers only to input, component and dim-range nodes, every component's
// input dim equals its descriptor's dim, dim-range nodes are in range, and
// there is at least one input and one output node.
#ifndef NNET3_NNET_NNET_H_
#define NNET3_NNET_NNET_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "nnet/component-itf.h"
#include "nnet/descriptor.h"

namespace nnet3 {

class Nnet;

enum NodeType { kInput, kDescriptor, kComponent, kDimRange, kNone };

// What an output node's objective is (`objective=` of an output-node line).
enum ObjectiveType { kLinear, kQuadratic };

// One node of the graph. Which fields are meaningful depends on node_type:
// kInput uses dim; kDescriptor uses descriptor (and objective_type when it
// is an output node); kComponent uses component_index; kDimRange uses
// node_index, dim and dim_offset.
struct NetworkNode {
  NodeType node_type = kNone;
  Descriptor descriptor;
  int32_t component_index = -1;
  int32_t node_index = -1;
  ObjectiveType objective_type = kLinear;
  int32_t dim = -1;
  int32_t dim_offset = -1;

  explicit NetworkNode(NodeType type = kNone) : node_type(type) {}
  // The node's output dimension (a descriptor's computed dimension, a
  // component's OutputDim()).
  int32_t Dim(const Nnet &nnet) const;
};

class Nnet {
 public:
  Nnet() = default;
  Nnet(const Nnet &other);
  Nnet &operator=(const Nnet &other);
  Nnet(Nnet &&other) noexcept = default;
  Nnet &operator=(Nnet &&other) noexcept = default;
  ~Nnet() = default;
  void Swap(Nnet *other);

  // ---- config files (reference 1.3) ----
  // Applies the config lines in `config_file` (named `filename` in errors,
  // "FILE:LINE: what"). On error the network is left as it was.
  void ReadConfig(std::istream &config_file,
                  const std::string &filename = "config");
  // One line per node, in node order, hidden `_input` nodes skipped
  // (reference 1.4). include_dim adds dims (for Info; not valid configs).
  void GetConfigLines(bool include_dim, std::vector<std::string> *lines) const;

  // ---- model files (reference 4.3) ----
  // Reads what Write writes (the "\0B" header, if any, already consumed).
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;
  // num-parameters, modulus, config lines with dims, one line per component.
  std::string Info() const;

  // Throws UserError on the first inconsistency (see the file comment);
  // warns about components no node uses and nodes no output needs.
  void Check(bool warn_for_orphans = true) const;

  // ---- nodes ----
  int32_t NumNodes() const { return static_cast<int32_t>(nodes_.size()); }
  const NetworkNode &GetNode(int32_t node) const;
  NetworkNode &GetNode(int32_t node);
  const std::string &GetNodeName(int32_t node) const;
  const std::vector<std::string> &GetNodeNames() const { return node_names_; }
  // -1 if there is no node called `name`.
  int32_t GetNodeIndex(const std::string &name) const;
  // Renames a node; UserError for an invalid name or one already used.
  // Renaming a component node also renames its `<name>_input` node.
  void SetNodeName(int32_t node, const std::string &new_name);

  bool IsInputNode(int32_t node) const;
  // A descriptor node not followed by a component node.
  bool IsOutputNode(int32_t node) const;
  // A descriptor node followed by its component node.
  bool IsComponentInputNode(int32_t node) const;
  bool IsDescriptorNode(int32_t node) const;
  bool IsComponentNode(int32_t node) const;
  bool IsDimRangeNode(int32_t node) const;

  // Dims of the input node / output node called `name`; -1 if there is no
  // such input / output node.
  int32_t InputDim(const std::string &name) const;
  int32_t OutputDim(const std::string &name) const;

  // ---- components ----
  int32_t NumComponents() const {
    return static_cast<int32_t>(components_.size());
  }
  const Component *GetComponent(int32_t c) const;
  Component *GetComponent(int32_t c);
  const std::string &GetComponentName(int32_t c) const;
  const std::vector<std::string> &GetComponentNames() const {
    return component_names_;
  }
  // -1 if there is no component called `name`.
  int32_t GetComponentIndex(const std::string &name) const;
  // Appends a component; returns its index. UserError if the name is taken
  // or is not a token (empty or with whitespace).
  int32_t AddComponent(const std::string &name,
                       std::unique_ptr<Component> component);
  // Replaces component c; the new one must have the same input and output
  // dims (InternalError otherwise).
  void SetComponent(int32_t c, std::unique_ptr<Component> component);

  // lcm of the descriptors' moduli (1 unless Round/Switch are used).
  int32_t Modulus() const;

  // Node names with descriptor nodes shown as "**": what Descriptor::Parse
  // needs, since descriptors may refer only to input, component and
  // dim-range nodes.
  std::vector<std::string> GetReferableNodeNames() const;

  // ---- structural edits ----
  // Removes nodes no output depends on (input nodes only if
  // remove_orphan_inputs), then re-checks.
  void RemoveOrphanNodes(bool remove_orphan_inputs = false);
  // Removes components no node uses, renumbering the nodes' indexes.
  void RemoveOrphanComponents();
  // Removes the given nodes (a component node takes its `_input` node with
  // it). UserError if a remaining node uses one of them.
  void RemoveSomeNodes(const std::vector<int32_t> &nodes_to_remove);
  // Gives every component (Component::ResetGenerator) a distinct seed
  // derived from `seed`.
  void ResetGenerators(uint64_t seed);

 private:
  friend class NnetConfigReader;

  // The config line of node n (not for component-input nodes).
  std::string GetAsConfigLine(int32_t node, bool include_dim) const;
  // Checks one node; UserError (without file context) on a problem.
  void CheckNode(int32_t node) const;

  std::vector<std::unique_ptr<Component>> components_;
  std::vector<std::string> component_names_;
  std::vector<NetworkNode> nodes_;
  std::vector<std::string> node_names_;
};

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_H_
