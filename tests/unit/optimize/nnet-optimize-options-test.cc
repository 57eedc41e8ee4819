// NnetOptimizeOptions: Kaldi's defaults, --optimization.x registration,
// Read/Write round trip and ==.
#include "optimize/nnet-optimize-options.h"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

#include "base/options.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

TEST_CASE("NnetOptimizeOptions defaults are Kaldi's", "[optimize-a]") {
  NnetOptimizeOptions o;
  CHECK(o.optimize);
  CHECK(o.consolidate_model_update);
  CHECK(o.propagate_in_place);
  CHECK(o.backprop_in_place);
  CHECK(o.optimize_row_ops);
  CHECK(o.split_row_ops);
  CHECK(o.extend_matrices);
  CHECK(o.convert_addition);
  CHECK(o.remove_assignments);
  CHECK(o.allow_left_merge);
  CHECK(o.allow_right_merge);
  CHECK(o.initialize_undefined);
  CHECK(o.move_sizing_commands);
  CHECK(o.allocate_from_other);
  CHECK(o.min_deriv_time == std::numeric_limits<int32_t>::min());
  CHECK(o.max_deriv_time == std::numeric_limits<int32_t>::max());
  CHECK(o.max_deriv_time_relative == std::numeric_limits<int32_t>::max());
  CHECK(o.snip_row_ops);
  CHECK(o.memory_compression_level == 1);
  CHECK(o.fuse_relu_affine);  // ours, not Kaldi's
  CHECK(o.fuse_scale_add);
  CHECK(o.fuse_zeroing);
  CHECK_FALSE(o.optimize_looped_computation);
}

TEST_CASE("NnetOptimizeOptions registers as --optimization.x", "[optimize-a]") {
  OptionsRegistry po("usage");
  NnetOptimizeOptions o;
  OptionsRegistry opt_po("optimization", &po);
  o.Register(&opt_po);
  const char *argv[] = {"prog",
                        "--optimization.convert-addition=false",
                        "--optimization.min-deriv-time=-3",
                        "--optimization.memory-compression-level=0",
                        "--optimization.allow_left_merge=false",
                        "arg"};
  po.Read(6, argv);
  CHECK(po.NumArgs() == 1);
  CHECK_FALSE(o.convert_addition);
  CHECK(o.min_deriv_time == -3);
  CHECK(o.memory_compression_level == 0);
  CHECK_FALSE(o.allow_left_merge);
  CHECK(o.allow_right_merge);
}

TEST_CASE("NnetOptimizeOptions Read/Write round trip and ==", "[optimize-a]") {
  for (bool binary : {false, true}) {
    NnetOptimizeOptions a;
    a.extend_matrices = false;
    a.max_deriv_time_relative = 5;
    a.min_deriv_time = -10;
    std::ostringstream os;
    a.Write(os, binary);
    NnetOptimizeOptions b;
    CHECK(a != b);
    std::istringstream is(os.str());
    b.Read(is, binary);
    CHECK(a == b);
  }
  NnetOptimizeOptions a, b;
  b.check_after_each_pass = !a.check_after_each_pass;
  CHECK(a == b);  // not an option
  std::istringstream bad("<OptimizationConfig> <Optimize> T <Oops>");
  CHECK_THROWS(a.Read(bad, false));
}

TEST_CASE("NnetOptimizeOptions writes the fuse-* options only when off",
          "[optimize-a]") {
  for (bool binary : {false, true}) {
    NnetOptimizeOptions a;
    std::ostringstream kaldi;
    a.Write(kaldi, binary);
    CHECK(kaldi.str().find("Fuse") == std::string::npos);
    a.fuse_scale_add = false;
    std::ostringstream os;
    a.Write(os, binary);
    CHECK(os.str().find("<FuseScaleAdd>") != std::string::npos);
    NnetOptimizeOptions b;
    std::istringstream is(os.str());
    b.Read(is, binary);
    CHECK(b == a);
    // A block without them (Kaldi's) reads as all on.
    std::istringstream is2(kaldi.str());
    b.Read(is2, binary);
    CHECK(b == NnetOptimizeOptions());
  }
}

TEST_CASE("OptimizationSwitches cover every pass option", "[optimize-a]") {
  NnetOptimizeOptions off = AllPassesOffOptions();
  CHECK(off.optimize);
  CHECK(off.memory_compression_level == 0);
  CHECK_FALSE(off.convert_addition);
  CHECK_FALSE(off.fuse_relu_affine);
  CHECK_FALSE(off.fuse_scale_add);
  CHECK_FALSE(off.fuse_zeroing);
  CHECK(OptimizationSwitches().size() == 18);
  for (const OptimizationSwitch &s : OptimizationSwitches()) {
    NnetOptimizeOptions o = AllPassesOffOptions();
    s.set(true, &o);
    CHECK(o != off);
    s.set(false, &o);
    CHECK(o == off);
  }
}

}  // namespace nnet3
