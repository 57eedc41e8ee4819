// Tests of RandomState: its own engine's ranges, and Kaldi's draws from the
// C library's rand() against numbers Kaldi printed.
#include "base/random.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace nnet3;

TEST_CASE("RandomState draws in range, repeatably", "[random]") {
  RandomState a(7), b(7);  // seed 7
  for (int i = 0; i < 200; ++i) {
    const int32_t k = a.Int(-3, 4);
    CHECK(k >= -3);
    CHECK(k <= 4);
    CHECK(b.Int(-3, 4) == k);
    const float u = a.Uniform();
    CHECK(u >= 0.0f);
    CHECK(u < 1.0f);
    CHECK(b.Uniform() == u);
  }
  CHECK(a.Int(5, 5) == 5);
  CHECK(!a.WithProb(0.0f));
  CHECK(a.WithProb(1.0f));
}

// The numbers are what this program, linked with Kaldi's base library
// (kaldi-base.a, glibc), printed:
//   srand(5);
//   6 x RandInt(-3, 1000); 4 x RandUniform(); 4 x RandGauss();
//   WithProb(1e-8), 5 x WithProb(0.3); Rand();
TEST_CASE("RandomState::KaldiDraws draws as Kaldi's kaldi-math", "[random]") {
  RandomState rng = RandomState::KaldiDraws(0, 5);  // srand(5)
  std::vector<int32_t> ints;
  for (int i = 0; i < 6; ++i) ints.push_back(rng.Int(-3, 1000));
  CHECK(ints == std::vector<int32_t>{28, 198, 883, 353, 693, 213});
  const float uniforms[] = {0.280566484f, 0.448455393f, 0.498247832f,
                            0.894001842f};
  for (float want : uniforms) CHECK(rng.Uniform() == want);
  const float gausses[] = {-0.444734216f, 0.0432243906f, -0.0510230437f,
                           -0.19469589f};
  for (float want : gausses) CHECK(rng.Gauss() == want);
  std::vector<int> probs;
  probs.push_back(rng.WithProb(1e-8f));
  for (int i = 0; i < 5; ++i) probs.push_back(rng.WithProb(0.3f));
  CHECK(probs == std::vector<int>{0, 1, 0, 0, 0, 1});
  CHECK(rng.Raw() == 163967331);
  // No draw for a single choice, or for probabilities 0 and 1.
  RandomState again = RandomState::KaldiDraws(0, 5);
  CHECK(again.Int(3, 3) == 3);
  CHECK(!again.WithProb(0.0f));
  CHECK(again.WithProb(1.0f));
  CHECK(again.Int(-3, 1000) == 28);
}
