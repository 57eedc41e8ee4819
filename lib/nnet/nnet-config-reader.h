// NnetConfigReader: applies network config lines to an Nnet, Kaldi's
// Nnet::ReadConfig algorithm (reference 1.3). Internal to the nnet layer:
// Nnet::ReadConfig, Nnet::Read and Nnet::RemoveSomeNodes use it; everyone
// else calls those.
//
//   NnetConfigReader reader(&nnet, "nnet.config");
//   reader.Apply(lines);      // lines from ReadConfigLines, with numbers
//
// Steps: the network's nodes are regenerated as config lines (components
// stay), the new lines are appended; a node defined again replaces the
// earlier definition (which must come from the existing network); pass 0
// creates components (replacing same-named ones in place), input nodes and
// empty slots for the other nodes; pass 1 fills in descriptors, component
// references and dim ranges, so forward references work; then every node
// is checked. Errors are UserErrors "FILE:LINE: what was wrong" (or
// "line LINE: ..." when the file name is empty, as for the config section
// of a model file). On error the Nnet is in an unspecified state: callers
// apply the lines to a copy.
#ifndef NNET3_NNET_NNET_CONFIG_READER_H_
#define NNET3_NNET_NNET_CONFIG_READER_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "nnet/nnet.h"
#include "util/config-line.h"

namespace nnet3 {

class NnetConfigReader {
 public:
  NnetConfigReader(Nnet *nnet, const std::string &filename);
  // warn_for_orphans: whether the final Check() warns about orphans.
  void Apply(const std::vector<NumberedLine> &lines,
             bool warn_for_orphans = true);

 private:
  struct Line {
    ConfigLine cfl;
    std::string type;   // the first token: "component", "input-node", ...
    std::string name;   // the name= value
    std::string where;  // "nnet.config:12" or "nnet.config: existing node 'x'"
    int32_t line_number = 0;  // 0 for lines regenerated from the network
    int32_t node = -1;        // the node it defines (set in pass 0)
  };

  void ParseLines(const std::vector<std::string> &existing,
                  const std::vector<NumberedLine> &lines);
  void RemoveRedundantLines();
  void ProcessLine(int32_t pass, Line *line);
  void ProcessComponent(Line *line);
  void ProcessInputNode(Line *line);
  void ProcessComponentNode(int32_t pass, Line *line);
  void ProcessOutputNode(int32_t pass, Line *line);
  void ProcessDimRangeNode(int32_t pass, Line *line);
  void CheckNetwork(bool warn_for_orphans) const;

  // Appends a node; UserError if the name is taken (only possible through
  // the hidden "<name>_input" nodes).
  int32_t AddNode(NodeType type, const std::string &name, const Line &line);
  // Parses an input= value; undefined node names get a clear message.
  void ParseDescriptor(const std::string &text, Descriptor *descriptor) const;
  static void CheckUnused(const Line &line, const std::string &what);
  // "FILE:LINE" or "line LINE".
  std::string Where(int32_t line_number) const;
  // "FILE: " or "".
  std::string FilePrefix() const;

  Nnet *nnet_;
  std::string filename_;
  std::vector<Line> lines_;
  int32_t initial_num_components_ = 0;
  std::unordered_map<std::string, int32_t> node_index_;
  std::vector<std::string> node_where_;  // per node: its line's `where`
  std::vector<std::string> referable_;   // node names, descriptors as "**"
};

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_CONFIG_READER_H_
