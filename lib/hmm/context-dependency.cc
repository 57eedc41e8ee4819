#include "hmm/context-dependency.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

namespace {

void SortAndUniq(std::vector<int32_t> *v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

// Context windows are short; a larger width in a file is corruption.
constexpr int32_t kMaxContextWidth = 100;

}  // namespace

ContextDependency::ContextDependency(int32_t N, int32_t P,
                                     std::unique_ptr<EventMap> to_pdf)
    : N_(N), P_(P), to_pdf_(std::move(to_pdf)) {
  NNET3_ASSERT(N_ > 0 && P_ >= 0 && P_ < N_ && to_pdf_);
}

ContextDependency::ContextDependency(const ContextDependency &other)
    : N_(other.N_),
      P_(other.P_),
      to_pdf_(other.to_pdf_ ? other.to_pdf_->Copy() : nullptr) {}

ContextDependency &ContextDependency::operator=(
    const ContextDependency &other) {
  if (this != &other) {
    N_ = other.N_;
    P_ = other.P_;
    to_pdf_ = other.to_pdf_ ? other.to_pdf_->Copy() : nullptr;
  }
  return *this;
}

bool ContextDependency::Compute(const std::vector<int32_t> &phone_window,
                                int32_t pdf_class, int32_t *pdf) const {
  NNET3_ASSERT(to_pdf_ && static_cast<int32_t>(phone_window.size()) == N_);
  EventType event;
  event.reserve(N_ + 1);
  event.emplace_back(kPdfClass, pdf_class);
  for (int32_t i = 0; i < N_; i++) {
    NNET3_ASSERT(phone_window[i] >= 0);
    event.emplace_back(i, phone_window[i]);
  }
  return to_pdf_->Map(event, pdf);
}

int32_t ContextDependency::NumPdfs() const {
  EventAnswerType max_answer;
  if (!to_pdf_ || !to_pdf_->MaxResult(&max_answer) || max_answer < 0) return 0;
  return max_answer + 1;
}

std::vector<int32_t> ContextDependency::PdfsFor(
    const std::vector<int32_t> &window, int32_t pdf_class) const {
  EventType event;
  event.emplace_back(kPdfClass, pdf_class);  // -1 sorts first
  for (int32_t i = 0; i < N_; i++)
    if (window[i] >= 0) event.emplace_back(i, window[i]);
  std::vector<int32_t> pdfs;
  to_pdf_->MultiMap(event, &pdfs);
  SortAndUniq(&pdfs);
  return pdfs;
}

void ContextDependency::GetPdfInfo(
    const std::vector<int32_t> &phones,
    const std::vector<int32_t> &num_pdf_classes,
    std::vector<std::vector<std::pair<int32_t, int32_t>>> *pdf_info) const {
  pdf_info->assign(NumPdfs(), {});
  std::vector<int32_t> window(N_, -1);
  for (int32_t phone : phones) {
    NNET3_ASSERT(phone > 0 &&
                 static_cast<size_t>(phone) < num_pdf_classes.size());
    window[P_] = phone;
    for (int32_t pdf_class = 0; pdf_class < num_pdf_classes[phone];
         pdf_class++) {
      const std::vector<int32_t> pdfs = PdfsFor(window, pdf_class);
      if (pdfs.empty())
        NNET3_ERR << "ContextDependency::GetPdfInfo, no pdfs returned for "
                  << "position " << pdf_class << " of phone " << phone
                  << ": the tree does not match the topology (was the tree "
                  << "built with this topology?)";
      for (int32_t pdf : pdfs) (*pdf_info)[pdf].emplace_back(phone, pdf_class);
    }
  }
  for (auto &pairs : *pdf_info) std::sort(pairs.begin(), pairs.end());
}

void ContextDependency::EnumeratePairs(
    const std::vector<int32_t> &phones, int32_t self_loop_pdf_class,
    int32_t forward_pdf_class, const std::vector<int32_t> &window,
    std::vector<std::pair<int32_t, int32_t>> *pairs) const {
  const std::vector<int32_t> forward_pdfs = PdfsFor(window, forward_pdf_class);
  if (self_loop_pdf_class < 0) {
    for (int32_t pdf : forward_pdfs) pairs->emplace_back(pdf, -1);
    return;
  }
  const std::vector<int32_t> self_loop_pdfs =
      PdfsFor(window, self_loop_pdf_class);
  // The free position nearest P (the lower one on a tie).
  int32_t position = -1;
  for (int32_t i = 0; i < N_; i++)
    if (window[i] == -1 &&
        (position == -1 || std::abs(i - P_) < std::abs(position - P_)))
      position = i;
  if (forward_pdfs.size() == 1 || self_loop_pdfs.size() == 1 ||
      position == -1) {
    // Every forward pdf goes with every self-loop pdf.
    for (int32_t f : forward_pdfs)
      for (int32_t s : self_loop_pdfs) pairs->emplace_back(f, s);
    return;
  }
  // Both depend on the context: fix one more phone (0: none, at the start
  // or end) and look again.
  std::vector<int32_t> next_window(window);
  next_window[position] = 0;
  EnumeratePairs(phones, self_loop_pdf_class, forward_pdf_class, next_window,
                 pairs);
  for (int32_t phone : phones) {
    next_window[position] = phone;
    EnumeratePairs(phones, self_loop_pdf_class, forward_pdf_class, next_window,
                   pairs);
  }
}

void ContextDependency::GetPdfInfo(
    const std::vector<int32_t> &phones,
    const std::vector<std::vector<std::pair<int32_t, int32_t>>>
        &pdf_class_pairs,
    std::vector<std::vector<std::vector<std::pair<int32_t, int32_t>>>>
        *pdf_info) const {
  NNET3_ASSERT(!phones.empty());
  pdf_info->assign(*std::max_element(phones.begin(), phones.end()) + 1, {});
  std::vector<int32_t> window(N_, -1);
  for (int32_t phone : phones) {
    const auto &class_pairs = pdf_class_pairs[phone];
    auto &phone_info = (*pdf_info)[phone];
    phone_info.resize(class_pairs.size());
    window[P_] = phone;
    for (size_t j = 0; j < class_pairs.size(); j++) {
      std::vector<std::pair<int32_t, int32_t>> pairs;
      EnumeratePairs(phones, class_pairs[j].second, class_pairs[j].first,
                     window, &pairs);
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      if (pairs.empty())
        NNET3_ERR << "ContextDependency::GetPdfInfo, no pdfs returned for "
                  << "pdf-classes " << class_pairs[j].first << "/"
                  << class_pairs[j].second << " of phone " << phone
                  << ": the tree does not match the topology";
      phone_info[j] = std::move(pairs);
    }
  }
}

void ContextDependency::Read(std::istream &is, bool binary) {
  to_pdf_.reset();
  ExpectToken(is, binary, "ContextDependency");
  ReadBasicType(is, binary, &N_);
  ReadBasicType(is, binary, &P_);
  if (N_ <= 0 || N_ > kMaxContextWidth || P_ < 0 || P_ >= N_)
    NNET3_ERR << "Reading a tree: context width " << N_
              << " and central position " << P_
              << " are impossible (need 0 <= P < N <= " << kMaxContextWidth
              << ")";
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "ToLength") {  // written by old Kaldi versions; unused
    EventMap::Read(is, binary);
    ReadToken(is, binary, &token);
  }
  if (token != "ToPdf")
    NNET3_ERR << "Reading a tree: got unexpected token " << token
              << " reading context-dependency object (expected ToPdf)";
  to_pdf_ = EventMap::Read(is, binary);
  if (!to_pdf_) NNET3_ERR << "Reading a tree: the ToPdf map is NULL";
  ExpectToken(is, binary, "EndContextDependency");
}

void ContextDependency::Write(std::ostream &os, bool binary) const {
  NNET3_ASSERT(to_pdf_);
  WriteToken(os, binary, "ContextDependency");
  WriteBasicType(os, binary, N_);
  WriteBasicType(os, binary, P_);
  WriteToken(os, binary, "ToPdf");
  to_pdf_->Write(os, binary);
  WriteToken(os, binary, "EndContextDependency");
}

}  // namespace nnet3
