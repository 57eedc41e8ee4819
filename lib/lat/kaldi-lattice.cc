#include "lat/kaldi-lattice.h"

#include <cctype>
#include <memory>
#include <type_traits>
#include <vector>

#include "fstext/fst-binary-io.h"
#include "fstext/fst-text-io.h"
#include "fstext/lattice-convert.h"

template class fst::VectorFst<nnet3::LatticeArc>;
template class fst::VectorFst<nnet3::CompactLatticeArc>;

namespace nnet3 {
namespace {

using LatticeWeightD = LatticeWeightTpl<double>;
using LatticeD = fst::VectorFst<fst::ArcTpl<LatticeWeightD>>;
using CompactLatticeD = fst::VectorFst<
    fst::ArcTpl<CompactLatticeWeightTpl<LatticeWeightD, int32_t>>>;

const char kSource[] = "the lattice";

// *out = `in` converted to Lattice or CompactLattice.
void AssignConverted(const Lattice &in, Lattice *out) { *out = in; }
void AssignConverted(const LatticeD &in, Lattice *out) {
  ConvertLattice(in, out);
}
void AssignConverted(const CompactLattice &in, Lattice *out) {
  ConvertLattice(in, out, /*invert=*/true);
}
void AssignConverted(const CompactLatticeD &in, Lattice *out) {
  CompactLattice single;
  ConvertLattice(in, &single);
  ConvertLattice(single, out, /*invert=*/true);
}
void AssignConverted(const CompactLattice &in, CompactLattice *out) {
  *out = in;
}
void AssignConverted(const CompactLatticeD &in, CompactLattice *out) {
  ConvertLattice(in, out);
}
void AssignConverted(const Lattice &in, CompactLattice *out) {
  ConvertLattice(in, out, /*invert=*/true);
}
void AssignConverted(const LatticeD &in, CompactLattice *out) {
  CompactLatticeD compact;
  ConvertLattice(in, &compact, /*invert=*/true);
  ConvertLattice(compact, out);
}

// Reads a binary lattice of any of the four arc types into *out.
template <class Out>
void ReadBinaryLattice(std::istream &is, Out *out) {
  fst::FstHeader header;
  ReadFstHeader(is, kSource, &header);
  const std::string &type = header.ArcType();
  if (header.FstType() != "vector")
    NNET3_ERR << "The lattice is an FST of type '" << header.FstType()
              << "'; lattices are 'vector' FSTs";
  if (type == LatticeArc::Type()) {
    AssignConverted(*ReadVectorFstBody<LatticeArc>(is, header, kSource), out);
  } else if (type == CompactLatticeArc::Type()) {
    AssignConverted(*ReadVectorFstBody<CompactLatticeArc>(is, header, kSource),
                    out);
  } else if (type == LatticeD::Arc::Type()) {
    AssignConverted(*ReadVectorFstBody<LatticeD::Arc>(is, header, kSource),
                    out);
  } else if (type == CompactLatticeD::Arc::Type()) {
    AssignConverted(
        *ReadVectorFstBody<CompactLatticeD::Arc>(is, header, kSource), out);
  } else {
    NNET3_ERR << "An FST with arc type '" << type << "' cannot be read as a "
              << "lattice (expected lattice4, compactlattice44, lattice8 or "
                 "compactlattice84)";
  }
}

// Reads the text form, whose lines do not say which type they are: they
// are parsed as both, and the type the caller wants is taken if it parsed,
// else the other one converted.
template <class Out>
void ReadTextLattice(std::istream &is, Out *out) {
  while (std::isspace(is.peek()) && is.peek() != '\n') is.get();
  if (is.peek() != '\n')
    NNET3_ERR << "Expected a newline before the lines of a text-form lattice";
  is.get();
  FstTextBuilder<LatticeArc> lattice(/*acceptor=*/false);
  FstTextBuilder<CompactLatticeArc> compact(/*acceptor=*/true);
  bool lattice_ok = true, compact_ok = true;
  std::string line;
  while (std::getline(is, line)) {
    const std::vector<std::string> columns = FstTextColumns(line);
    if (columns.empty()) break;
    lattice_ok = lattice_ok && lattice.AddLine(columns);
    compact_ok = compact_ok && compact.AddLine(columns);
    if (!lattice_ok && !compact_ok) {
      const std::string bad = line;
      // Skip to the end of this lattice, as Kaldi does.
      while (std::getline(is, line) && !FstTextColumns(line).empty()) {
      }
      NNET3_ERR << "Bad line in a text-form lattice: '" << bad << "'";
    }
  }
  constexpr bool kWantCompact = std::is_same<Out, CompactLattice>::value;
  if (kWantCompact ? compact_ok : !lattice_ok)
    AssignConverted(*compact.Release(), out);
  else
    AssignConverted(*lattice.Release(), out);
}

template <class Lat>
void WriteLatticeOfType(std::ostream &os, bool binary, const Lat &lat,
                        bool acceptor) {
  if (binary) {
    std::string openfst_says;
    bool ok;
    {
      OpenFstLogCapture capture(&openfst_says);
      ok = lat.Write(os, fst::FstWriteOptions());
    }
    if (!ok) NNET3_ERR << "Error writing a lattice: " << openfst_says;
  } else {
    WriteFstText(os, lat, acceptor);
  }
  if (os.fail()) NNET3_ERR << "Write error while writing a lattice";
}

}  // namespace

void WriteLattice(std::ostream &os, bool binary, const Lattice &lat) {
  WriteLatticeOfType(os, binary, lat, /*acceptor=*/false);
}

void WriteCompactLattice(std::ostream &os, bool binary,
                         const CompactLattice &clat) {
  WriteLatticeOfType(os, binary, clat, /*acceptor=*/true);
}

void ReadLattice(std::istream &is, bool binary, Lattice *lat) {
  if (binary)
    ReadBinaryLattice(is, lat);
  else
    ReadTextLattice(is, lat);
}

void ReadCompactLattice(std::istream &is, bool binary, CompactLattice *clat) {
  if (binary)
    ReadBinaryLattice(is, clat);
  else
    ReadTextLattice(is, clat);
}

bool LatticeIsBinary(std::istream &is) {
  const int c = is.peek();
  if (c == EOF) NNET3_ERR << "End of file where a lattice should start";
  if (std::isspace(c)) return false;
  if (c == kFstMagicFirstByte) return true;
  NNET3_ERR << "This does not look like a lattice: neither Kaldi's text form "
               "(which starts with a newline) nor OpenFst's binary form "
               "(which starts with its magic number)";
  return false;
}

}  // namespace nnet3
