// gpuprims::reduce_cols: widths around each column tile (1 to 32 columns a block, then several
// blocks), row counts around the chunks and passes, n x 1 and 1 x n, pitched rows, ints exact,
// integer-valued floats exact, doubles within a bound, int8 into int64, a small policy that takes
// many passes, the same bits on a second call, poisoned outputs, more than 2^31 items, and the
// argument checks.
#include <gpuprims/device/reduce.cuh>

#include "support/test_support.cuh"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gpuprims::test;

// Blocks of 64 threads, chunks of 2 rows: 1000 rows take ten passes.
struct many_passes_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_cols_policy select(int /*arch*/) {
    return {64, 4096, 2, 3, true};
  }
};

// One warp a block, one load at a time, no dependent launch.
struct one_warp_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_cols_policy select(int /*arch*/) {
    return {32, 8, 8, 1, false};
  }
};

template <class Tuning, class Item, class T, class Op, class Gen>
void check_cols(const std::string& name, std::size_t rows, std::size_t cols, std::size_t pitch,
                T init, Op op, Gen gen) {
  INFO(name << ": rows = " << rows << ", cols = " << cols << ", pitch = " << pitch);
  const std::size_t span = rows == 0 ? 0 : (rows - 1) * pitch + cols;
  std::vector<Item> items(span + 1);
  for (auto& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(Item)), out(2 * cols * sizeof(T) + 1);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(Item), cudaMemcpyHostToDevice));
  out.poison();
  const auto* x = reinterpret_cast<const Item*>(in.data());
  auto* r = reinterpret_cast<T*>(out.data());
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce_cols<Tuning>(x, r, rows, cols, pitch, init, op));
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce_cols<Tuning>(x, r + cols, rows, cols, pitch, init, op));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<T> got(2 * cols);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), r, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t c = 0; c < cols; ++c) {
    wrong += reduction_matches(got[c], got[cols + c], init, op, rows,
                               [&](std::size_t k) { return items[k * pitch + c]; })
                 ? 0
                 : 1;
  }
  CHECK(wrong == 0);
}

template <class Tuning>
void check_shapes(const std::vector<std::size_t>& all_rows,
                  const std::vector<std::size_t>& all_cols) {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  for (std::size_t cols : all_cols) {
    for (std::size_t rows : all_rows) {
      if (rows * cols > (std::size_t{1} << 22)) {
        continue;
      }
      check_cols<Tuning, std::int32_t>("int32 plus", rows, cols, cols, std::int32_t{5},
                                       gpuprims::plus<std::int32_t>{}, small_int);
      check_cols<Tuning, std::int32_t>("int32 plus, pitch + 3", rows, cols, cols + 3,
                                       std::int32_t{5}, gpuprims::plus<std::int32_t>{}, small_int);
      check_cols<Tuning, float>("float maximum", rows, cols, cols + 1, -1e30f,
                                gpuprims::maximum<float>{}, unit);
      check_cols<Tuning, float>("float plus (exact data)", rows, cols, cols, 0.5f,
                                gpuprims::plus<float>{}, unit);
      check_cols<Tuning, double>("double plus", rows, cols, cols, 0.25, gpuprims::plus<double>{},
                                 real);
      check_cols<Tuning, std::int8_t>("int8 into int64 plus", rows, cols, cols, std::int64_t{0},
                                      gpuprims::plus<std::int64_t>{},
                                      [&g] { return static_cast<std::int8_t>(g()); });
    }
  }
}

}  // namespace

TEST_CASE("reduce_cols gives each column its reduction, for every shape", "[reduce][gpu]") {
  check_shapes<gpuprims::reduce_cols_tuning>({0, 1, 2, 7, 255, 256, 257, 1000, 70001},
                                             {1, 2, 3, 7, 16, 31, 32, 33, 100, 1025, 70001});
  // n x 1 and 1 x n.
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  check_cols<gpuprims::reduce_cols_tuning, std::int32_t>("2^22 x 1", std::size_t{1} << 22, 1, 1,
                                                         std::int32_t{0},
                                                         gpuprims::plus<std::int32_t>{}, small_int);
  check_cols<gpuprims::reduce_cols_tuning, std::int32_t>("2^22 x 1, pitch 3", std::size_t{1} << 22,
                                                         1, 3, std::int32_t{0},
                                                         gpuprims::plus<std::int32_t>{}, small_int);
  check_cols<gpuprims::reduce_cols_tuning, std::int32_t>("1 x 2^22", 1, std::size_t{1} << 22,
                                                         std::size_t{1} << 22, std::int32_t{0},
                                                         gpuprims::plus<std::int32_t>{}, small_int);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("reduce_cols under small policies: many passes, one warp a block", "[reduce][gpu]") {
  check_shapes<many_passes_tuning>({1, 2, 3, 1000, 4099}, {1, 5, 32, 33, 200});
  check_shapes<one_warp_tuning>({1, 9, 1000}, {1, 5, 32, 33, 200});
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("reduce_cols rejects bad arguments and launches nothing", "[reduce][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const gpuprims::plus<float> op{};
  CHECK(gpuprims::reduce_cols(in, static_cast<float*>(nullptr), 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_cols(static_cast<const float*>(nullptr), out, 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_cols(in, out, 2, 4, 3, 0.0f, op) == cudaErrorInvalidValue);  // pitch
  CHECK(gpuprims::reduce_cols(in, out, std::size_t{1} << 40, std::size_t{1} << 40,
                              std::size_t{1} << 40, 0.0f, op) == cudaErrorInvalidValue);  // span
  CHECK(gpuprims::reduce_cols(in, const_cast<float*>(in) + 3, 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);  // the output overlaps the input
  CHECK(gpuprims::reduce_cols(in, out, 4, 0, 4, 0.0f, op) == cudaSuccess);  // nothing to do
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("reduce_cols sums more than 2^31 int8 into int64", "[reduce][gpu][large]") {
  // 2^21 + 3 rows of 1024 columns, pitch 1025: items and offsets past 32 bits.
  const std::size_t rows = (std::size_t{1} << 21) + 3, cols = 1024, pitch = 1025;
  const std::size_t span = (rows - 1) * pitch + cols;
  std::vector<unsigned char> bytes(span);
  fill_random(bytes.data(), span);
  device_buffer in(span), out(cols * sizeof(std::int64_t));
  in.upload(bytes);
  out.poison();
  GPUPRIMS_CHECK_CUDA(gpuprims::reduce_cols(
      reinterpret_cast<const std::int8_t*>(in.data()), reinterpret_cast<std::int64_t*>(out.data()),
      rows, cols, pitch, std::int64_t{0}, gpuprims::plus<std::int64_t>{}));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<std::int64_t> got(cols), ref(cols, 0);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(got.data(), out.data(), cols * sizeof(std::int64_t), cudaMemcpyDeviceToHost));
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      ref[c] += static_cast<std::int8_t>(bytes[r * pitch + c]);
    }
  }
  CHECK(got == ref);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}
