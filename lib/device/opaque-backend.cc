#include "device/opaque-backend.h"

#include <cstdint>

namespace nnet3 {

namespace {

constexpr uintptr_t kOffset = OpaqueBackend::kOffset;

template <class T>
T *Real(T *p) {
  if (p == nullptr) return nullptr;
  return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(p) - kOffset);
}

MatView Real(MatView m) {
  m.data = Real(m.data);
  return m;
}

ConstMatView Real(ConstMatView m) {
  m.data = Real(m.data);
  return m;
}

// A host copy of a device pointer list of n entries, each entry made real.
template <class T>
std::vector<T *> RealList(T *const *ptrs, int32_t n) {
  std::vector<T *> list(n > 0 ? n : 0);
  if (n > 0) {
    T *const *real = Real(ptrs);
    for (int32_t i = 0; i < n; i++) list[i] = Real(real[i]);
  }
  return list;
}

}  // namespace

void *OpaqueBackend::Allocate(size_t bytes) {
  void *p = cpu_.Allocate(bytes);
  if (p == nullptr) return nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.insert(p);
  }
  return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(p) + kOffset);
}

void OpaqueBackend::Free(void *ptr) {
  void *p = Real(ptr);
  if (p != nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.erase(p);
  }
  cpu_.Free(p);
}

void OpaqueBackend::CopyFromHost(const void *host_src, void *dev_dst,
                                 size_t bytes) {
  if (bytes > 0) cpu_.CopyFromHost(host_src, Real(dev_dst), bytes);
}

void OpaqueBackend::CopyToHost(const void *dev_src, void *host_dst,
                               size_t bytes) {
  if (bytes > 0) cpu_.CopyToHost(Real(dev_src), host_dst, bytes);
}

void OpaqueBackend::CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                                       size_t bytes) {
  if (bytes > 0) cpu_.CopyDeviceToDevice(Real(dev_src), Real(dev_dst), bytes);
}

void OpaqueBackend::CopyFromHost2D(const float *host_src, int32_t host_stride,
                                   MatView dst) {
  cpu_.CopyFromHost2D(host_src, host_stride, Real(dst));
}

void OpaqueBackend::CopyToHost2D(ConstMatView src, float *host_dst,
                                 int32_t host_stride) {
  cpu_.CopyToHost2D(Real(src), host_dst, host_stride);
}

void OpaqueBackend::SetConst(MatView m, float value) {
  cpu_.SetConst(Real(m), value);
}

void OpaqueBackend::CopyMat(float alpha, ConstMatView src, Trans trans,
                            MatView dst) {
  cpu_.CopyMat(alpha, Real(src), trans, Real(dst));
}

void OpaqueBackend::AddMat(float alpha, ConstMatView src, Trans trans,
                           MatView dst) {
  cpu_.AddMat(alpha, Real(src), trans, Real(dst));
}

void OpaqueBackend::Scale(float alpha, MatView m) {
  cpu_.Scale(alpha, Real(m));
}

void OpaqueBackend::AddConst(float value, MatView m) {
  cpu_.AddConst(value, Real(m));
}

void OpaqueBackend::AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                                      MatView dst) {
  cpu_.AddMatAndScaleSrc(alpha, Real(src), src_scale, Real(dst));
}

void OpaqueBackend::ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                                   MatView dst) {
  cpu_.ScaleAndAddMat(beta, alpha, Real(src), Real(dst));
}

void OpaqueBackend::ScaleOffsetCols(bool rectify, ConstMatView scale,
                                    ConstMatView offset, ConstMatView in,
                                    MatView out) {
  cpu_.ScaleOffsetCols(rectify, Real(scale), Real(offset), Real(in), Real(out));
}

void OpaqueBackend::Gemm(float alpha, ConstMatView a, Trans trans_a,
                         ConstMatView b, Trans trans_b, float beta, MatView c) {
  cpu_.Gemm(alpha, Real(a), trans_a, Real(b), trans_b, beta, Real(c));
}

void OpaqueBackend::CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                             MatView dst) {
  cpu_.CopyRows(alpha, Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::AddRows(float alpha, ConstMatView src, const int32_t *idx,
                            MatView dst) {
  cpu_.AddRows(alpha, Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::CopyToRows(ConstMatView src, const int32_t *idx,
                               MatView dst) {
  cpu_.CopyToRows(Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                              MatView dst) {
  cpu_.AddToRows(alpha, Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                                     MatView dst) {
  const std::vector<const float *> list = RealList(ptrs, dst.rows);
  cpu_.CopyRowsFromPtrs(alpha, list.data(), Real(dst));
}

void OpaqueBackend::AddRowsFromPtrs(float alpha, const float *const *ptrs,
                                    MatView dst) {
  const std::vector<const float *> list = RealList(ptrs, dst.rows);
  cpu_.AddRowsFromPtrs(alpha, list.data(), Real(dst));
}

void OpaqueBackend::CopyToRowPtrs(ConstMatView src, float *const *ptrs) {
  const std::vector<float *> list = RealList(ptrs, src.rows);
  cpu_.CopyToRowPtrs(Real(src), list.data());
}

void OpaqueBackend::AddToRowPtrs(float alpha, ConstMatView src,
                                 float *const *ptrs) {
  const std::vector<float *> list = RealList(ptrs, src.rows);
  cpu_.AddToRowPtrs(alpha, Real(src), list.data());
}

void OpaqueBackend::AddRowRanges(float alpha, ConstMatView src,
                                 const int32_t *ranges, MatView dst) {
  cpu_.AddRowRanges(alpha, Real(src), Real(ranges), Real(dst));
}

void OpaqueBackend::CopyCols(ConstMatView src, const int32_t *idx,
                             MatView dst) {
  cpu_.CopyCols(Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::AddCols(ConstMatView src, const int32_t *idx, MatView dst) {
  cpu_.AddCols(Real(src), Real(idx), Real(dst));
}

void OpaqueBackend::EqualElementMask(ConstMatView a, ConstMatView b,
                                     MatView dst) {
  cpu_.EqualElementMask(Real(a), Real(b), Real(dst));
}

void OpaqueBackend::Apply(Func f, ConstMatView in, MatView out) {
  cpu_.Apply(f, Real(in), Real(out));
}

void OpaqueBackend::ApplyPow(float power, ConstMatView in, MatView out) {
  cpu_.ApplyPow(power, Real(in), Real(out));
}

void OpaqueBackend::Clamp(float lower, float upper, ConstMatView in,
                          MatView out) {
  cpu_.Clamp(lower, upper, Real(in), Real(out));
}

void OpaqueBackend::MulElements(ConstMatView src, MatView dst) {
  cpu_.MulElements(Real(src), Real(dst));
}

void OpaqueBackend::DivElements(ConstMatView src, MatView dst) {
  cpu_.DivElements(Real(src), Real(dst));
}

void OpaqueBackend::MaxElements(ConstMatView src, MatView dst) {
  cpu_.MaxElements(Real(src), Real(dst));
}

void OpaqueBackend::MinElements(ConstMatView src, MatView dst) {
  cpu_.MinElements(Real(src), Real(dst));
}

void OpaqueBackend::AddMatMatElements(float alpha, ConstMatView a,
                                      ConstMatView b, float beta, MatView dst) {
  cpu_.AddMatMatElements(alpha, Real(a), Real(b), beta, Real(dst));
}

void OpaqueBackend::DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                                MatView in_deriv) {
  cpu_.DiffSigmoid(Real(y), Real(out_deriv), Real(in_deriv));
}

void OpaqueBackend::DiffTanh(ConstMatView y, ConstMatView out_deriv,
                             MatView in_deriv) {
  cpu_.DiffTanh(Real(y), Real(out_deriv), Real(in_deriv));
}

void OpaqueBackend::DiffRelu(ConstMatView y, ConstMatView out_deriv,
                             MatView in_deriv) {
  cpu_.DiffRelu(Real(y), Real(out_deriv), Real(in_deriv));
}

void OpaqueBackend::SoftmaxRows(ConstMatView in, MatView out) {
  cpu_.SoftmaxRows(Real(in), Real(out));
}

void OpaqueBackend::LogSoftmaxRows(ConstMatView in, MatView out) {
  cpu_.LogSoftmaxRows(Real(in), Real(out));
}

void OpaqueBackend::DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                                MatView in_deriv) {
  cpu_.DiffSoftmax(Real(y), Real(out_deriv), Real(in_deriv));
}

void OpaqueBackend::DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                                   MatView in_deriv) {
  cpu_.DiffLogSoftmax(Real(y), Real(out_deriv), Real(in_deriv));
}

void OpaqueBackend::AddVecToRows(float alpha, ConstMatView v, MatView m) {
  cpu_.AddVecToRows(alpha, Real(v), Real(m));
}

void OpaqueBackend::AddVecToCols(float alpha, ConstMatView v, MatView m) {
  cpu_.AddVecToCols(alpha, Real(v), Real(m));
}

void OpaqueBackend::MulColsVec(ConstMatView v, MatView m) {
  cpu_.MulColsVec(Real(v), Real(m));
}

void OpaqueBackend::MulRowsVec(ConstMatView v, MatView m) {
  cpu_.MulRowsVec(Real(v), Real(m));
}

void OpaqueBackend::AddRowSumToVec(float alpha, ConstMatView m, float beta,
                                   MatView v) {
  cpu_.AddRowSumToVec(alpha, Real(m), beta, Real(v));
}

void OpaqueBackend::AddColSumToVec(float alpha, ConstMatView m, float beta,
                                   MatView v) {
  cpu_.AddColSumToVec(alpha, Real(m), beta, Real(v));
}

double OpaqueBackend::Sum(ConstMatView m) { return cpu_.Sum(Real(m)); }

double OpaqueBackend::DotProduct(ConstMatView a, ConstMatView b) {
  return cpu_.DotProduct(Real(a), Real(b));
}

float OpaqueBackend::Max(ConstMatView m) { return cpu_.Max(Real(m)); }

float OpaqueBackend::Min(ConstMatView m) { return cpu_.Min(Real(m)); }

void OpaqueBackend::LstmNonlinearity(ConstMatView in, ConstMatView params,
                                     MatView out) {
  cpu_.LstmNonlinearity(Real(in), Real(params), Real(out));
}

void OpaqueBackend::DiffLstmNonlinearity(
    ConstMatView in, ConstMatView params, ConstMatView out_deriv,
    ConstMatView deriv_sum_in, ConstMatView self_repair_config, double count_in,
    MatView in_deriv, MatView params_deriv, MatView value_sum_out,
    MatView deriv_sum_out, MatView self_repair_sum_out) {
  cpu_.DiffLstmNonlinearity(
      Real(in), Real(params), Real(out_deriv), Real(deriv_sum_in),
      Real(self_repair_config), count_in, Real(in_deriv), Real(params_deriv),
      Real(value_sum_out), Real(deriv_sum_out), Real(self_repair_sum_out));
}

void OpaqueBackend::RandUniform(uint64_t seed, MatView m) {
  cpu_.RandUniform(seed, Real(m));
}

void OpaqueBackend::RandGaussian(uint64_t seed, MatView m) {
  cpu_.RandGaussian(seed, Real(m));
}

void OpaqueBackend::CompressMat(ConstMatView src, CompressedType type,
                                float range, void *packed) {
  cpu_.CompressMat(Real(src), type, range, Real(packed));
}

void OpaqueBackend::DecompressMat(const void *packed, CompressedType type,
                                  float range, MatView dst) {
  cpu_.DecompressMat(Real(packed), type, range, Real(dst));
}

void OpaqueBackend::AddRowDotProducts(float alpha, ConstMatView a,
                                      ConstMatView b, float beta, MatView v) {
  cpu_.AddRowDotProducts(alpha, Real(a), Real(b), beta, Real(v));
}

void OpaqueBackend::AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m,
                                  float beta, MatView dst) {
  cpu_.AddDiagVecMat(alpha, Real(v), Real(m), beta, Real(dst));
}

}  // namespace nnet3
