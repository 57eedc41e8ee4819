#include "fstext/fst-binary-io.h"

#include <fst/util.h>

namespace nnet3 {
namespace {

constexpr int32_t kMaxTypeNameLength = 256;

template <class T>
void ReadHeaderField(std::istream &is, const std::string &source,
                     const char *field, T *value) {
  fst::ReadType(is, value);
  if (!is)
    NNET3_ERR << "'" << source << "' ends inside its FST header (at the "
              << field << "): truncated file?";
}

std::string ReadTypeName(std::istream &is, const std::string &source,
                         const char *field) {
  int32_t length = 0;
  ReadHeaderField(is, source, field, &length);
  if (length < 0 || length > kMaxTypeNameLength)
    NNET3_ERR << "'" << source << "' has a corrupted FST header (the " << field
              << " is " << length << " bytes long)";
  std::string name(length, '\0');
  is.read(&name[0], length);
  if (!is)
    NNET3_ERR << "'" << source << "' ends inside its FST header (at the "
              << field << "): truncated file?";
  return name;
}

}  // namespace

void ReadFstHeader(std::istream &is, const std::string &source,
                   fst::FstHeader *header) {
  int32_t magic = 0;
  fst::ReadType(is, &magic);
  if (!is || magic != kFstMagicNumber)
    NNET3_ERR << "'" << source << "' is not an OpenFst binary FST (it does "
              << "not start with OpenFst's magic number)";
  header->SetFstType(ReadTypeName(is, source, "FST type"));
  header->SetArcType(ReadTypeName(is, source, "arc type"));
  int32_t version = 0, flags = 0;
  uint64_t properties = 0;
  int64_t start = 0, num_states = 0, num_arcs = 0;
  ReadHeaderField(is, source, "version", &version);
  ReadHeaderField(is, source, "flags", &flags);
  ReadHeaderField(is, source, "properties", &properties);
  ReadHeaderField(is, source, "start state", &start);
  ReadHeaderField(is, source, "number of states", &num_states);
  ReadHeaderField(is, source, "number of arcs", &num_arcs);
  // OpenFst writes -1 states when it could not count them (a streamed
  // write); then the start state cannot be checked.
  if (num_states < -1 || num_arcs < -1 || start < -1 ||
      (num_states >= 0 && start >= num_states))
    NNET3_ERR << "'" << source << "' has a corrupted FST header (" << num_states
              << " states, " << num_arcs << " arcs, start state " << start
              << ")";
  header->SetVersion(version);
  header->SetFlags(static_cast<uint32_t>(flags));
  header->SetProperties(properties);
  header->SetStart(start);
  header->SetNumStates(num_states);
  header->SetNumArcs(num_arcs);
}

void CheckFstHeaderTypes(const fst::FstHeader &header,
                         const std::string &fst_type,
                         const std::string &arc_type, const std::string &what,
                         const std::string &source) {
  if (header.ArcType() != arc_type)
    NNET3_ERR << "'" << source << "' holds an FST with arc type '"
              << header.ArcType() << "', but " << what << " with arc type '"
              << arc_type << "' was expected";
  if (header.FstType() != fst_type)
    NNET3_ERR << "'" << source << "' holds an FST of type '" << header.FstType()
              << "', but " << what << " of type '" << fst_type
              << "' was expected";
}

}  // namespace nnet3
