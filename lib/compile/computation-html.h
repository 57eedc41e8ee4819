// One computation as HTML: the command list (each command's matrices
// linked to their definitions, the live matrix bytes after each command as
// a bar, the peak command marked), the matrix table (shape, bytes, what
// the rows hold, the commands that allocate, free and use each matrix) and
// the matrices live at the memory peak, largest first, also summed by
// node. Presentation of NnetComputation::GetCommandStrings and
// ComputeMemoryTimeline; used by the HTML page of nnet3-compile-info
// (compile-info-html.h).
//
//   ComputationHtml html(nnet, computation, "r1-a-");  // anchor prefix
//   html.WriteCommands(os);      // anchors r1-a-c0, r1-a-c1, ...
//   html.WriteMatrices(os);      // anchors r1-a-m1, ...
//   html.WriteLiveAtPeak(os);
//
// Output is HTML fragments (tables), escaped; no scripts.
#ifndef NNET3_COMPILE_COMPUTATION_HTML_H_
#define NNET3_COMPILE_COMPUTATION_HTML_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compile/memory-timeline.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// A command's text (GetCommandStrings' form) as escaped HTML with each
// matrix reference outside quotes (m3, m3(0:9, :)) linked to
// #<prefix>m3 and "goto c5" to #<prefix>c5; the matrices referenced are
// appended to *matrices (if not null), in order of appearance.
std::string LinkCommandText(const std::string &text, const std::string &prefix,
                            std::vector<int32_t> *matrices);

// LinkCommandText of `text`, with what follows the first ~240 characters
// (long index lists) folded into a <details> element.
std::string CommandCellHtml(const std::string &text, const std::string &prefix);

class ComputationHtml {
 public:
  // `nnet` and `computation` must outlive this object.
  ComputationHtml(const Nnet &nnet, const NnetComputation &computation,
                  const std::string &prefix);

  void WriteCommands(std::ostream &os) const;
  void WriteMatrices(std::ostream &os) const;
  void WriteLiveAtPeak(std::ostream &os) const;

  const MemoryTimeline &Timeline() const { return timeline_; }
  const std::vector<std::string> &CommandStrings() const { return commands_; }

 private:
  // "value of tdnn1.affine, n=0:1 t=-12:13" from the debug info; "" if none.
  std::string MatrixContents(int32_t m) const;
  std::string MatrixLink(int32_t m) const;
  std::string CommandLink(int32_t k) const;  // "-" for -1

  const Nnet &nnet_;
  const NnetComputation &computation_;
  std::string prefix_;
  MemoryTimeline timeline_;
  std::vector<std::string> commands_;
  std::vector<std::vector<int32_t>> users_;  // per matrix: commands using it
};

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_HTML_H_
