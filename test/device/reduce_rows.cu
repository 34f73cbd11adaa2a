// gpuprims::reduce_rows: row lengths around each strategy's switch (packed rows read as 16-byte
// words, a thread, a warp, a block per row, groups of lanes with 16-byte loads; long rows cut into
// tiles, or the walk), 1 x n and n x 1, pitched rows, rows starting off a 16-byte boundary, ints
// exact, integer-valued floats exact, doubles within a bound, a matrix of more than 2^31 int8 into
// int64, the same bits on a second call, poisoned outputs, and the argument checks.
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

// Items that do not pack into 16-byte words (12 bytes), summed word by word (wrapping).
struct triple {
  std::uint32_t a, b, c;
};
struct triple_plus {
  __host__ __device__ triple operator()(const triple& x, const triple& y) const {
    return {x.a + y.a, x.b + y.b, x.c + y.c};
  }
};

// The launcher calls go through function pointers to these instantiations, as in reduce.cu.
template <class Tuning, class Item, class T, class Op>
cudaError_t run_rows(const Item* in, T* out, std::size_t rows, std::size_t cols, std::size_t pitch,
                     T init, Op op) {
  return gpuprims::reduce_rows<Tuning>(in, out, rows, cols, pitch, init, op);
}

// The matrix starts `first` items into the buffer (so its rows start off a 16-byte boundary).
template <class Item, class T, class Op, class Gen>
void check_rows(const std::string& name, std::size_t rows, std::size_t cols, std::size_t pitch,
                T init, Op op, Gen gen, std::size_t first = 0) {
  INFO(name << ": rows = " << rows << ", cols = " << cols << ", pitch = " << pitch
            << ", first = " << first);
  const std::size_t span = rows == 0 ? 0 : (rows - 1) * pitch + cols;
  std::vector<Item> items(first + span + 1);
  for (auto& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(Item)), out(2 * rows * sizeof(T) + 1);
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(Item), cudaMemcpyHostToDevice));
  out.poison();
  const auto* x = reinterpret_cast<const Item*>(in.data()) + first;
  auto* r = reinterpret_cast<T*>(out.data());
  cudaError_t (*rows_fn)(const Item*, T*, std::size_t, std::size_t, std::size_t, T, Op) =
      &run_rows<gpuprims::reduce_rows_tuning, Item, T, Op>;
  GPUPRIMS_CHECK_CUDA(rows_fn(x, r, rows, cols, pitch, init, op));
  GPUPRIMS_CHECK_CUDA(rows_fn(x, r + rows, rows, cols, pitch, init, op));
  GPUPRIMS_CHECK_LAUNCH();
  std::vector<T> got(2 * rows);
  GPUPRIMS_CHECK_CUDA(cudaMemcpy(got.data(), r, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t wrong = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    wrong += reduction_matches(got[row], got[rows + row], init, op, cols,
                               [&](std::size_t k) { return items[first + row * pitch + k]; })
                 ? 0
                 : 1;
  }
  CHECK(wrong == 0);
}

// The library's rows policy with packed rows off (reduce_rows_policy::packed_max_cols 0): the
// paths packed rows replaced.
struct unpacked_rows_tuning {
  __host__ __device__ static constexpr gpuprims::reduce_rows_policy select(int arch) {
    gpuprims::reduce_rows_policy p = gpuprims::reduce_rows_tuning::select(arch);
    p.packed_max_cols = 0;
    return p;
  }
};

// Packed rows (in starting `first` items into its buffer, out `out_first` results into its) under
// the library's policy, called twice: the CPU's reduction, nothing written past the results, and
// the same bits on the second call, which takes the unpacked paths where packed rows keep their
// bits (rows of at most one word: a thread or a lane a row, columns in order) and packed rows
// again where they do not (a lane a word).
template <class Item, class T, class Op, class Gen>
void check_packed_rows(const std::string& name, std::size_t rows, std::size_t cols, T init, Op op,
                       Gen gen, std::size_t first, std::size_t out_first) {
  INFO(name << ": rows = " << rows << ", cols = " << cols << ", first = " << first
            << ", out_first = " << out_first);
  std::vector<Item> items(first + rows * cols + 1);
  for (auto& x : items) {
    x = gen();
  }
  device_buffer in(items.size() * sizeof(Item)), out((out_first + 2 * rows + 1) * sizeof(T));
  GPUPRIMS_CHECK_CUDA(
      cudaMemcpy(in.data(), items.data(), items.size() * sizeof(Item), cudaMemcpyHostToDevice));
  out.poison();
  const auto* x = reinterpret_cast<const Item*>(in.data()) + first;
  auto* r = reinterpret_cast<T*>(out.data()) + out_first;
  using rows_fn = cudaError_t (*)(const Item*, T*, std::size_t, std::size_t, std::size_t, T, Op);
  const rows_fn packed = &run_rows<gpuprims::reduce_rows_tuning, Item, T, Op>;
  const rows_fn unpacked = &run_rows<unpacked_rows_tuning, Item, T, Op>;
  const rows_fn second = cols * sizeof(Item) <= 16 ? unpacked : packed;
  // The second call first: a packed store past the results would overwrite its results.
  GPUPRIMS_CHECK_CUDA(second(x, r + rows, rows, cols, cols, init, op));
  GPUPRIMS_CHECK_CUDA(packed(x, r, rows, cols, cols, init, op));
  GPUPRIMS_CHECK_LAUNCH();
  const std::vector<unsigned char> bytes = out.download();
  std::vector<T> got(2 * rows);
  std::memcpy(got.data(), bytes.data() + out_first * sizeof(T), got.size() * sizeof(T));
  std::size_t wrong = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    wrong += reduction_matches(got[row], got[rows + row], init, op, cols,
                               [&](std::size_t k) { return items[first + row * cols + k]; })
                 ? 0
                 : 1;
  }
  CHECK(wrong == 0);
  const std::size_t end = (out_first + 2 * rows) * sizeof(T);
  CHECK(first_unpoisoned(bytes.data() + end, sizeof(T)) == sizeof(T));
}

}  // namespace

TEST_CASE("reduce_rows gives each row its reduction, for every row length", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  for (std::size_t cols :
       {0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 128, 200, 1023, 1024, 1025, 4096, 4097, 70001}) {
    for (std::size_t rows : {1, 7, 1000}) {
      if (rows * cols > (std::size_t{1} << 24)) {
        continue;
      }
      check_rows<std::int32_t>("int32 plus", rows, cols, cols, std::int32_t{5},
                               gpuprims::plus<std::int32_t>{}, small_int);
      check_rows<std::int32_t>("int32 plus, pitch + 3", rows, cols, cols + 3, std::int32_t{5},
                               gpuprims::plus<std::int32_t>{}, small_int);
      check_rows<float>("float maximum", rows, cols, cols + 1, -1e30f, gpuprims::maximum<float>{},
                        unit);
      check_rows<float>("float plus (exact data)", rows, cols, cols, 0.5f, gpuprims::plus<float>{},
                        unit);
      check_rows<double>("double plus", rows, cols, cols, 0.25, gpuprims::plus<double>{}, real);
      // Rows that share their offset from a 16-byte boundary, 3 floats past one (row groups).
      check_rows<float>("float plus (exact data), rows off a boundary", rows, cols,
                        (cols + 3) / 4 * 4, 0.5f, gpuprims::plus<float>{}, unit, 3);
      check_rows<std::int8_t>("int8 into int64 plus", rows, cols, cols, std::int64_t{0},
                              gpuprims::plus<std::int64_t>{},
                              [&g] { return static_cast<std::int8_t>(g()); });
    }
  }
  // A 1 x n row and an n x 1 column.
  check_rows<std::int32_t>("1 x 2^22", 1, std::size_t{1} << 22, std::size_t{1} << 22,
                           std::int32_t{0}, gpuprims::plus<std::int32_t>{}, small_int);
  check_rows<std::int32_t>("2^22 x 1", std::size_t{1} << 22, 1, 1, std::int32_t{0},
                           gpuprims::plus<std::int32_t>{}, small_int);
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());  // long rows used a workspace
}

// From reduce_rows_tuning's tiles_min_cols (4096) on, rows whose starts share their offset from
// a 16-byte boundary are cut into tiles of 512 x 4 words (8192 floats): whole tiles, a part tile,
// a head before the first boundary, padded and unpadded; rows that do not share it take the walk
// (pitch == cols) or a block per row.
TEST_CASE("reduce_rows cuts long rows into tiles", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  const auto byte = [&g] { return static_cast<std::int8_t>(g()); };
  for (std::size_t cols : {16383, 16384, 16388, 24577, 65536 + 12, 300001}) {
    for (std::size_t rows : {1, 3, 40}) {
      for (std::size_t pad : {0, 4, 5}) {
        for (std::size_t first : {0, 1, 3}) {
          if (rows * (cols + pad) > (std::size_t{1} << 23)) {
            continue;
          }
          check_rows<std::int32_t>("int32 plus", rows, cols, cols + pad, std::int32_t{5},
                                   gpuprims::plus<std::int32_t>{}, small_int, first);
          check_rows<float>("float plus (exact data)", rows, cols, cols + pad, 0.5f,
                            gpuprims::plus<float>{}, unit, first);
          check_rows<float>("float minimum", rows, cols, cols + pad, 1e30f,
                            gpuprims::minimum<float>{}, unit, first);
          check_rows<double>("double plus", rows, cols, cols + pad, 0.25, gpuprims::plus<double>{},
                             real, first);
          check_rows<std::int8_t>("int8 into int64 plus", rows, cols, cols + 4 * pad,
                                  std::int64_t{0}, gpuprims::plus<std::int64_t>{}, byte, first);
          check_rows<triple>(
              "12-byte items", rows, cols, cols + pad, triple{1, 2, 3}, triple_plus{},
              [&g] {
                return triple{static_cast<std::uint32_t>(g()), static_cast<std::uint32_t>(g()),
                              static_cast<std::uint32_t>(g())};
              },
              first);
        }
      }
    }
  }
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

TEST_CASE("reduce_rows in tiles over more than 2^31 items, 65535 rows, 4096 tiles a row",
          "[reduce][gpu][large]") {
  std::mt19937_64& g = rng();
  const auto byte = [&g] { return static_cast<std::int8_t>(g()); };
  // 129 rows of 2^24 + 16 items: 2^31 + 2^24 + 2064 in all, every row's start 16-byte aligned.
  const std::size_t cols = (std::size_t{1} << 24) + 16;
  check_rows<std::int8_t>("int8 into int64 plus, > 2^31 items", 129, cols, cols, std::int64_t{3},
                          gpuprims::plus<std::int64_t>{}, byte);
  // More rows than a grid's y extent (65535): the kernel loops over rows.
  check_rows<std::int8_t>("int8 into int64 plus, 65537 rows", 65537, 16389, 16400, std::int64_t{3},
                          gpuprims::plus<std::int64_t>{}, byte, 3);
  // 4097 tiles a row: the second pass folds each row's partials with a block.
  const std::size_t long_cols = (std::size_t{1} << 25) + 7;
  check_rows<float>("float plus (exact data), 4097 tiles a row", 2, long_cols, long_cols + 1, 0.5f,
                    gpuprims::plus<float>{},
                    [&g] { return static_cast<float>(static_cast<int>(g() % 3) - 1); });
  GPUPRIMS_CHECK_CUDA(gpuprims::release_stream_workspace());
}

// Packed rows (off in the library's policy until measured): rows of 1 to 16 items several to a
// 16-byte word (a thread a row's bits), rows of 2 to 32 words a lane a word; every packable length
// of each item size, row counts around a word's rows and a tile's words, the rows after the last
// whole word, an input off a 16-byte boundary and outputs off their stores' alignment (the
// library's paths then), and lengths that never pack (3, 5, 24: neither divides the other; 256
// floats: 64 words).
TEST_CASE("reduce_rows reads packed rows as 16-byte words", "[reduce][gpu]") {
  std::mt19937_64& g = rng();
  const auto small_int = [&g] { return static_cast<std::int32_t>(g() % 2001) - 1000; };
  const auto real = [&g] { return std::uniform_real_distribution<double>(-1, 1)(g); };
  const auto real32 = [&g] { return std::uniform_real_distribution<float>(-1, 1)(g); };
  const auto unit = [&g] { return static_cast<float>(static_cast<int>(g() % 17) - 8); };
  const auto byte = [&g] { return static_cast<std::int8_t>(g()); };
  for (std::size_t cols : {1, 2, 3, 4, 5, 8, 16, 24, 32, 64, 128, 256, 512}) {
    for (std::size_t rows : {1, 2, 3, 5, 17, 1000, 4099, 100003}) {
      if (rows * cols > (std::size_t{1} << 22)) {
        continue;
      }
      for (std::size_t first : {0, 1}) {
        for (std::size_t out_first : {0, 1}) {
          check_packed_rows<std::int32_t>("int32 plus", rows, cols, std::int32_t{5},
                                          gpuprims::plus<std::int32_t>{}, small_int, first,
                                          out_first);
          // Floats summed into float: integer values (the CPU folds from init, the GPU adds init
          // last); float into double and double: random values, within a bound.
          check_packed_rows<float>("float plus (exact data)", rows, cols, 0.5f,
                                   gpuprims::plus<float>{}, unit, first, out_first);
          check_packed_rows<float>("float maximum", rows, cols, -1e30f, gpuprims::maximum<float>{},
                                   real32, first, out_first);
          check_packed_rows<float>("float into double plus", rows, cols, 0.25,
                                   gpuprims::plus<double>{}, real32, first, out_first);
          check_packed_rows<double>("double plus", rows, cols, 0.25, gpuprims::plus<double>{}, real,
                                    first, out_first);
          check_packed_rows<std::int8_t>("int8 into int64 plus", rows, cols, std::int64_t{0},
                                         gpuprims::plus<std::int64_t>{}, byte, first, out_first);
          check_packed_rows<std::int8_t>("int8 into int32 plus", rows, cols, std::int32_t{0},
                                         gpuprims::plus<std::int32_t>{}, byte, first, out_first);
        }
      }
    }
  }
}

TEST_CASE("reduce_rows rejects bad arguments and launches nothing", "[reduce][gpu]") {
  device_buffer buffer(4096);
  const auto* in = reinterpret_cast<const float*>(buffer.data());
  auto* out = reinterpret_cast<float*>(buffer.data() + 2048);
  const gpuprims::plus<float> op{};
  CHECK(gpuprims::reduce_rows(in, static_cast<float*>(nullptr), 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_rows(static_cast<const float*>(nullptr), out, 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);
  CHECK(gpuprims::reduce_rows(in, out, 2, 4, 3, 0.0f, op) == cudaErrorInvalidValue);  // pitch
  CHECK(gpuprims::reduce_rows(in, out, std::size_t{1} << 40, std::size_t{1} << 40,
                              std::size_t{1} << 40, 0.0f, op) == cudaErrorInvalidValue);  // span
  CHECK(gpuprims::reduce_rows(in, const_cast<float*>(in) + 3, 2, 4, 4, 0.0f, op) ==
        cudaErrorInvalidValue);  // the output overlaps the input
  CHECK(gpuprims::reduce_rows(in, out, 0, 4, 4, 0.0f, op) == cudaSuccess);  // nothing to do
  CHECK(cudaGetLastError() == cudaSuccess);
}
