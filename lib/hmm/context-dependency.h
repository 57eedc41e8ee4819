// Kaldi's ContextDependency (a "tree" file): which pdf each phone has in
// each context. N (the context width) phones make a window whose phone at
// position P (the central position) is the one being modelled; a phone of 0
// in the window means "no phone" (the start or end of the utterance). The
// decision tree (an EventMap) maps the window and a pdf-class to a pdf.
//
//   ContextDependency ctx_dep;
//   ReadKaldiObject("exp/tri1/tree", &ctx_dep);     // UserError if malformed
//   int32_t pdf;
//   if (ctx_dep.Compute({12, 31, 7}, /*pdf_class=*/1, &pdf)) ...
//   int32_t num_pdfs = ctx_dep.NumPdfs();
//
// Format, binary and text, as Kaldi writes it: "ContextDependency N P ToPdf
// <event map> EndContextDependency" (event-map.h); files written by old
// Kaldi versions with a "ToLength <event map>" before "ToPdf" are read too.
// Reading then writing gives back the same bytes.
#ifndef NNET3_HMM_CONTEXT_DEPENDENCY_H_
#define NNET3_HMM_CONTEXT_DEPENDENCY_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <utility>
#include <vector>

#include "hmm/event-map.h"

namespace nnet3 {

class ContextDependency {
 public:
  ContextDependency() = default;
  // 0 <= P < N; `to_pdf` non-null.
  ContextDependency(int32_t N, int32_t P, std::unique_ptr<EventMap> to_pdf);
  ContextDependency(const ContextDependency &other);
  ContextDependency &operator=(const ContextDependency &other);
  ContextDependency(ContextDependency &&) = default;
  ContextDependency &operator=(ContextDependency &&) = default;

  int32_t ContextWidth() const { return N_; }
  int32_t CentralPosition() const { return P_; }

  // The pdf of `pdf_class` of the phone at position P of `phone_window`
  // (N phones, each >= 0); false if the tree has no answer for it.
  bool Compute(const std::vector<int32_t> &phone_window, int32_t pdf_class,
               int32_t *pdf) const;
  // One more than the largest pdf in the tree (0 for an empty tree).
  int32_t NumPdfs() const;
  const EventMap &ToPdfMap() const { return *to_pdf_; }

  // For a plain HMM topology: indexed by pdf, the sorted (phone, pdf-class)
  // pairs that can have that pdf, for each phone of `phones` and each
  // pdf-class below num_pdf_classes[phone]. UserError if some (phone,
  // pdf-class) has no pdf at all (a tree that does not match the
  // topology).
  void GetPdfInfo(
      const std::vector<int32_t> &phones,
      const std::vector<int32_t> &num_pdf_classes,
      std::vector<std::vector<std::pair<int32_t, int32_t>>> *pdf_info) const;

  // For a topology whose states have separate forward and self-loop
  // pdf-classes: indexed by phone, then by the entry of
  // pdf_class_pairs[phone] (forward pdf-class, self-loop pdf-class; -1 for
  // none), the sorted (forward pdf, self-loop pdf) pairs the tree can give
  // in some context (-1 as the self-loop pdf where there is none).
  void GetPdfInfo(
      const std::vector<int32_t> &phones,
      const std::vector<std::vector<std::pair<int32_t, int32_t>>>
          &pdf_class_pairs,
      std::vector<std::vector<std::vector<std::pair<int32_t, int32_t>>>>
          *pdf_info) const;

  // UserError if malformed.
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

 private:
  // Adds to `pairs` the (forward pdf, self-loop pdf) pairs possible when
  // the phones of `window` that are >= 0 are fixed, filling in the free
  // position nearest P where the two pdfs depend on it.
  void EnumeratePairs(const std::vector<int32_t> &phones,
                      int32_t self_loop_pdf_class, int32_t forward_pdf_class,
                      const std::vector<int32_t> &window,
                      std::vector<std::pair<int32_t, int32_t>> *pairs) const;
  // The pdfs MultiMap gives for the fixed phones of `window` and
  // `pdf_class`, sorted and unique.
  std::vector<int32_t> PdfsFor(const std::vector<int32_t> &window,
                               int32_t pdf_class) const;

  int32_t N_ = 0;
  int32_t P_ = 0;
  std::unique_ptr<EventMap> to_pdf_;
};

}  // namespace nnet3

#endif  // NNET3_HMM_CONTEXT_DEPENDENCY_H_
