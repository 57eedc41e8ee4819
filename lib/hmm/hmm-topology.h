// Kaldi's HmmTopology: the HMM of each phone, as the front of a transition
// model (and Kaldi's "topo" files) holds it. Read and written in Kaldi's
// binary and text formats, byte for byte.
//
//   HmmTopology topo;
//   topo.Read(is, binary);           // UserError if malformed (Kaldi's Check)
//   const HmmTopology::TopologyEntry &e = topo.TopologyForPhone(phone);
//   topo.Write(os, binary);
//
// Format. Binary: <Topology>, the sorted phone list (integer vector), the
// phone-to-entry table (integer vector, -1 where none), [-1 if any state's
// self-loop pdf-class differs from its forward one], the number of
// entries, then per entry its number of states and per state the forward
// pdf-class [, the self-loop pdf-class], the number of transitions and
// (destination int32, probability float) for each; </Topology>. Text:
//   <Topology>
//   <TopologyEntry>
//   <ForPhones>
//   1 2 3
//   </ForPhones>
//   <State> 0 <PdfClass> 0 <Transition> 0 0.5 <Transition> 1 0.5 </State>
//   <State> 1 </State>
//   </TopologyEntry>
//   </Topology>
// with <ForwardPdfClass> f <SelfLoopPdfClass> s instead of <PdfClass> when
// the topology is not a plain HMM, and no pdf-class on a non-emitting state.
#ifndef NNET3_HMM_HMM_TOPOLOGY_H_
#define NNET3_HMM_HMM_TOPOLOGY_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

namespace nnet3 {

class HmmTopology {
 public:
  static constexpr int32_t kNoPdf = -1;

  struct HmmState {
    int32_t forward_pdf_class = kNoPdf;
    int32_t self_loop_pdf_class = kNoPdf;
    // (destination state, probability).
    std::vector<std::pair<int32_t, float>> transitions;
    bool operator==(const HmmState &other) const {
      return forward_pdf_class == other.forward_pdf_class &&
             self_loop_pdf_class == other.self_loop_pdf_class &&
             transitions == other.transitions;
    }
  };
  using TopologyEntry = std::vector<HmmState>;

  // UserError if the stream is not a valid topology.
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

  // Kaldi's HmmTopology::Check, as UserErrors: every phone has an entry;
  // every entry is used, has at least two states, a final non-emitting
  // state without transitions, positive probabilities to valid states, no
  // duplicate transitions, input transitions into every state but the
  // first, and pdf-classes 0..n-1.
  void Check() const;
  // True if every state's self-loop pdf-class equals its forward one.
  bool IsHmm() const;

  const std::vector<int32_t> &GetPhones() const { return phones_; }
  // UserError if the phone has no entry.
  const TopologyEntry &TopologyForPhone(int32_t phone) const;
  int32_t NumPdfClasses(int32_t phone) const;
  bool operator==(const HmmTopology &other) const {
    return phones_ == other.phones_ && phone2idx_ == other.phone2idx_ &&
           entries_ == other.entries_;
  }

 private:
  void ReadText(std::istream &is);
  void ReadBinary(std::istream &is);
  void ReadTextEntry(std::istream &is);
  void CheckEntry(const TopologyEntry &entry, int32_t index) const;

  std::vector<int32_t> phones_;     // sorted
  std::vector<int32_t> phone2idx_;  // phone -> index into entries_, or -1
  std::vector<TopologyEntry> entries_;
};

}  // namespace nnet3

#endif  // NNET3_HMM_HMM_TOPOLOGY_H_
