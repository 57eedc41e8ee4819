// The table types programs use, with Kaldi's names (kaldi-table-types):
//
//   SequentialBaseFloatMatrixReader  RandomAccessBaseFloatMatrixReader
//   BaseFloatMatrixWriter                          (Matrix; reads CM* too)
//   SequentialBaseFloatVectorReader  RandomAccessBaseFloatVectorReader
//   BaseFloatVectorWriter                          (Vector)
//   SequentialCompressedMatrixReader RandomAccessCompressedMatrixReader
//   CompressedMatrixWriter                         (CompressedMatrix)
//   SequentialGeneralMatrixReader    RandomAccessGeneralMatrixReader
//   GeneralMatrixWriter                            (GeneralMatrix)
//   SequentialInt32VectorReader      RandomAccessInt32VectorReader
//   Int32VectorWriter                              (std::vector<int32_t>)
//   SequentialPosteriorReader        RandomAccessPosteriorReader
//   PosteriorWriter                                (Posterior)
//   SequentialInt32Reader  RandomAccessInt32Reader  Int32Writer   (int32_t)
//   SequentialBaseFloatReader RandomAccessBaseFloatReader BaseFloatWriter
//   SequentialDoubleReader RandomAccessDoubleReader DoubleWriter
//   SequentialBoolReader   RandomAccessBoolReader   BoolWriter
//   SequentialBaseFloatPairVectorReader RandomAccessBaseFloatPairVectorReader
//   BaseFloatPairVectorWriter          (std::vector<std::pair<float, float>>)
//
//   SequentialBaseFloatMatrixReader feats("scp:feats.scp");
//   BaseFloatMatrixWriter out("ark,t:-");
//   for (; !feats.Done(); feats.Next()) out.Write(feats.Key(), feats.Value());
//
// A Matrix read from a CM/CM2/CM3 entry is decompressed; an scp entry with a
// [range] gives the sub-matrix. See util/table-reader.h and
// util/table-writer.h for the semantics.
#ifndef NNET3_UTIL_TABLE_TYPES_H_
#define NNET3_UTIL_TABLE_TYPES_H_

#include <cstdint>
#include <vector>

#include "matrix/compressed-matrix.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "matrix/posterior.h"
#include "matrix/vector.h"
#include "util/pair-vector-holder.h"
#include "util/table-holders.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

namespace nnet3 {

using SequentialBaseFloatMatrixReader =
    SequentialTableReader<KaldiObjectHolder<Matrix>>;
using RandomAccessBaseFloatMatrixReader =
    RandomAccessTableReader<KaldiObjectHolder<Matrix>>;
using BaseFloatMatrixWriter = TableWriter<KaldiObjectHolder<Matrix>>;

using SequentialBaseFloatVectorReader =
    SequentialTableReader<KaldiObjectHolder<Vector>>;
using RandomAccessBaseFloatVectorReader =
    RandomAccessTableReader<KaldiObjectHolder<Vector>>;
using BaseFloatVectorWriter = TableWriter<KaldiObjectHolder<Vector>>;

using SequentialCompressedMatrixReader =
    SequentialTableReader<KaldiObjectHolder<CompressedMatrix>>;
using RandomAccessCompressedMatrixReader =
    RandomAccessTableReader<KaldiObjectHolder<CompressedMatrix>>;
using CompressedMatrixWriter = TableWriter<KaldiObjectHolder<CompressedMatrix>>;

using SequentialGeneralMatrixReader =
    SequentialTableReader<KaldiObjectHolder<GeneralMatrix>>;
using RandomAccessGeneralMatrixReader =
    RandomAccessTableReader<KaldiObjectHolder<GeneralMatrix>>;
using GeneralMatrixWriter = TableWriter<KaldiObjectHolder<GeneralMatrix>>;

using SequentialInt32VectorReader =
    SequentialTableReader<BasicVectorHolder<int32_t>>;
using RandomAccessInt32VectorReader =
    RandomAccessTableReader<BasicVectorHolder<int32_t>>;
using Int32VectorWriter = TableWriter<BasicVectorHolder<int32_t>>;

using SequentialPosteriorReader = SequentialTableReader<PosteriorHolder>;
using RandomAccessPosteriorReader = RandomAccessTableReader<PosteriorHolder>;
using PosteriorWriter = TableWriter<PosteriorHolder>;

using SequentialInt32Reader = SequentialTableReader<BasicHolder<int32_t>>;
using RandomAccessInt32Reader = RandomAccessTableReader<BasicHolder<int32_t>>;
using Int32Writer = TableWriter<BasicHolder<int32_t>>;

using SequentialBaseFloatReader = SequentialTableReader<BasicHolder<float>>;
using RandomAccessBaseFloatReader = RandomAccessTableReader<BasicHolder<float>>;
using BaseFloatWriter = TableWriter<BasicHolder<float>>;

using SequentialDoubleReader = SequentialTableReader<BasicHolder<double>>;
using RandomAccessDoubleReader = RandomAccessTableReader<BasicHolder<double>>;
using DoubleWriter = TableWriter<BasicHolder<double>>;

using SequentialBoolReader = SequentialTableReader<BasicHolder<bool>>;
using RandomAccessBoolReader = RandomAccessTableReader<BasicHolder<bool>>;
using BoolWriter = TableWriter<BasicHolder<bool>>;

using SequentialBaseFloatPairVectorReader =
    SequentialTableReader<BasicPairVectorHolder<float>>;
using RandomAccessBaseFloatPairVectorReader =
    RandomAccessTableReader<BasicPairVectorHolder<float>>;
using BaseFloatPairVectorWriter = TableWriter<BasicPairVectorHolder<float>>;

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_TYPES_H_
