// One translation unit that instantiates every host launcher and every device template of the
// library (and of its ladder) for a representative set of types. test/codegen/CMakeLists.txt
// compiles it for every architecture nvcc supports, as SASS, and once as PTX only, with warnings
// as errors: an occupancy bound beyond a target's limits, an architecture-specific instruction that
// reaches a target without it, or a warning in any header fails the build there.
#include <gpuprims/gpuprims.cuh>
#include <gpuprims/ladder/gemm.cuh>
#include <gpuprims/ladder/histogram.cuh>
#include <gpuprims/ladder/reduce.cuh>
#include <gpuprims/ladder/scan.cuh>
#include <gpuprims/ladder/stencil.cuh>
#include <gpuprims/ladder/transpose.cuh>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

namespace every_arch {

template <std::size_t Size, std::size_t Align>
struct alignas(Align) blob {
  unsigned char bytes[Size];
};

template <class T>
void copies(cudaStream_t s) {
  (void)gpuprims::copy(static_cast<const T*>(nullptr), static_cast<T*>(nullptr), 0, s);
  (void)gpuprims::copy_vectorized<1>(static_cast<const T*>(nullptr), static_cast<T*>(nullptr), 0,
                                     s);
  if constexpr (16 % sizeof(T) == 0 && sizeof(T) < 16) {
    (void)gpuprims::copy_vectorized<16 / sizeof(T)>(static_cast<const T*>(nullptr),
                                                    static_cast<T*>(nullptr), 0, s);
  }
}

template <class T>
void transposes(cudaStream_t s) {
  const T* in = nullptr;
  T* out = nullptr;
  (void)gpuprims::transpose(in, out, 1, 1, s);
  (void)gpuprims::transpose(in, out, 1, 1, 1, 1, s);
  (void)gpuprims::transpose(in, out, 1, 1, 1, 1, 1, 1, 1, s);
  using gpuprims::ladder::transpose_rung;
  (void)gpuprims::ladder::transpose<transpose_rung::naive>(in, out, 1, 1, s);
  (void)gpuprims::ladder::transpose<transpose_rung::shared_unpadded>(in, out, 1, 1, s);
  (void)gpuprims::ladder::transpose<transpose_rung::shared_padded>(in, out, 1, 1, s);
  (void)gpuprims::ladder::transpose<transpose_rung::register_4x4>(in, out, 1, 1, s);
  (void)gpuprims::ladder::transpose<transpose_rung::register_2x2>(in, out, 1, 1, s);
}

template <class Item, class T, class Op>
void reduces(cudaStream_t s) {
  (void)gpuprims::reduce(static_cast<const Item*>(nullptr), static_cast<T*>(nullptr), 0, T{}, Op{},
                         s);
  std::size_t bytes = 0;
  (void)gpuprims::reduce_workspace_bytes<Item, T>(1, bytes);
  (void)gpuprims::reduce_rows(static_cast<const Item*>(nullptr), static_cast<T*>(nullptr), 0, 0, 0,
                              T{}, Op{}, s);
}

template <class Item, class T, class Op>
void scans(cudaStream_t s) {
  const Item* in = nullptr;
  T* out = nullptr;
  (void)gpuprims::inclusive_scan(in, out, 0, Op{}, s);
  (void)gpuprims::exclusive_scan(in, out, 0, T{}, Op{}, s);
  std::size_t bytes = 0;
  (void)gpuprims::scan_workspace_bytes<Item, T>(1, bytes);
}

struct keep_positive {
  template <class T>
  __device__ bool operator()(const T& x) const {
    return x > T{};
  }
};

template <class Item>
void selects(cudaStream_t s) {
  const Item* in = nullptr;
  Item* out = nullptr;
  (void)gpuprims::select_if(in, out, 0, keep_positive{}, static_cast<std::size_t*>(nullptr), s);
  (void)gpuprims::partition(in, out, out, 0, keep_positive{}, static_cast<int*>(nullptr), s);
  std::size_t bytes = 0;
  (void)gpuprims::select_workspace_bytes<Item>(1, bytes);
}

struct low_bits {
  template <class T>
  __device__ int operator()(const T& x) const {
    return static_cast<int>(x) & 255;
  }
};

template <class Sample>
void histograms(cudaStream_t s) {
  const Sample* in = nullptr;
  unsigned int* counts = nullptr;
  const gpuprims::histogram_level_t<Sample>* levels = nullptr;
  (void)gpuprims::histogram_even(in, 0, counts, 256, 0, 100, s);
  (void)gpuprims::histogram_even(in, 0, counts, 1 << 20, 0, 100, gpuprims::histogram_counts::add,
                                 s);
  (void)gpuprims::histogram_range(in, 0, counts, levels, 16, s);
  (void)gpuprims::histogram(in, 0, static_cast<unsigned long long*>(nullptr), 256, low_bits{}, s);
  using gpuprims::ladder::histogram_rung;
  (void)gpuprims::ladder::histogram_even<histogram_rung::warp_aggregated>(in, 0, counts, 256, 0,
                                                                          100, s);
}

__global__ void user_histogram(const int* in, unsigned long long* counts) {
  using hist_t = gpuprims::block_histogram<128, 100>;
  __shared__ hist_t::storage s;
  hist_t h(s);
  h.init();
  h.add(in[threadIdx.x]);
  h.merge(counts);
}

void gemms(cudaStream_t s) {
  using gpuprims::ladder::gemm_rung;
  (void)gpuprims::gemm(nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, 0, 1.0f, 0.0f, s);
  (void)gpuprims::ladder::gemm<gemm_rung::naive>(nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, 0, 1.0f,
                                                 0.0f, s);
  (void)gpuprims::ladder::gemm<gemm_rung::shared_16x16>(nullptr, nullptr, nullptr, 0, 0, 0, 0, 0, 0,
                                                        1.0f, 0.0f, s);
  (void)gpuprims::ladder::gemm<gemm_rung::blocktiling_1d>(nullptr, nullptr, nullptr, 0, 0, 0, 0, 0,
                                                          0, 1.0f, 0.0f, s);
}

__global__ void user_gemm(const float* a, const float* b, float* c, std::size_t n) {
  using tile_t = gpuprims::block_gemm_tile<64, 64, 8, 4, 4>;
  __shared__ tile_t::storage st;
  tile_t tile(st);
  float acc[4][4] = {};
  for (std::size_t k0 = 0; k0 < n; k0 += 8) {
    tile.load(a, n, b, n, n, n, n, 0, 0, k0, false);
    tile.accumulate(acc);
  }
  tile.store(c, n, n, n, 0, 0, 1.0f, 0.0f, acc, false);
}

template <int Rad, gpuprims::stencil_shape Shape, class T>
void stencils2d(cudaStream_t s) {
  const gpuprims::stencil2d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil2d<Rad, Shape>(static_cast<const T*>(nullptr),
                                              static_cast<T*>(nullptr), 1, 1, 1, 1, w,
                                              gpuprims::boundary::mirror(), s);
  if constexpr (!(Rad == 4 && Shape == gpuprims::stencil_shape::box && sizeof(T) == 8)) {
    (void)gpuprims::apply_stencil2d_fused<Rad, Shape, 2>(static_cast<const T*>(nullptr),
                                                         static_cast<T*>(nullptr), 1, 1, 1, 1, w,
                                                         gpuprims::boundary::mirror(), s);
  }
}

__global__ void user_stencil2d(const float* in, float* out, std::size_t rows, std::size_t cols) {
  using stencil_t = gpuprims::stencil2d<2, gpuprims::stencil_shape::box, float, 32, 4, 2>;
  __shared__ stencil_t::storage st;
  const gpuprims::stencil2d_weights<float, 2> w{};
  stencil_t(st).apply(in, cols, out, cols, cols, rows, 0, 0, w, gpuprims::boundary::clamp());
  gpuprims::warp_stencil2d<2, gpuprims::stencil_shape::star, 16>(
      in, cols, out, cols, cols, rows, 0, 0, w, gpuprims::boundary::periodic());
}

__global__ void user_warp_stencil3d(const double* in, double* out, std::size_t n) {
  const gpuprims::stencil3d_weights<double, 2> w{};
  gpuprims::warp_stencil3d<2, gpuprims::stencil_shape::star, 3>(
      in, n, n * n, out, n, n * n, n, n, n, 0, 0, 0, n, w, gpuprims::boundary::mirror());
}

template <gpuprims::ladder::stencil2d_rung Rung>
void stencil2d_rung(cudaStream_t s) {
  const gpuprims::stencil2d_weights<double, 1> w{};
  (void)gpuprims::ladder::apply_stencil2d<1, gpuprims::stencil_shape::box, Rung>(
      static_cast<const double*>(nullptr), static_cast<double*>(nullptr), 1, 1, 1, 1, w,
      gpuprims::boundary::clamp(), s);
}

template <gpuprims::ladder::stencil3d_rung Rung>
void stencil3d_rung(cudaStream_t s) {
  const gpuprims::stencil3d_weights<float, 1> w{};
  (void)gpuprims::ladder::apply_stencil3d<1, gpuprims::stencil_shape::star, Rung>(
      static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 1, 1, 1, 1, 1, 1, 1, w,
      gpuprims::boundary::clamp(), s);
}

template <int Rad, gpuprims::stencil_shape Shape, class T>
void stencils3d(cudaStream_t s) {
  const gpuprims::stencil3d_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil3d<Rad, Shape>(static_cast<const T*>(nullptr),
                                              static_cast<T*>(nullptr), 1, 1, 1, 1, 1, 1, 1, w,
                                              gpuprims::boundary::mirror(), s);
  (void)gpuprims::apply_stencil3d_fused<Rad, Shape, 2>(static_cast<const T*>(nullptr),
                                                       static_cast<T*>(nullptr), 1, 1, 1, 1, 1, 1,
                                                       1, w, gpuprims::boundary::mirror(), s);
}

// A user update in every dimension, one step and fused.
template <int Dim>
struct mean_of_axes {
  template <class At>
  __device__ float operator()(const At& at) const {
    if constexpr (Dim == 1) {
      return 0.5f * (at(-1) + at(1));
    } else if constexpr (Dim == 2) {
      return 0.25f * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1));
    } else {
      return (at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) +
              at(0, 0, 1)) /
             6.f;
    }
  }
};
void stencil_updates(cudaStream_t s) {
  const float* in = nullptr;
  float* out = nullptr;
  using gpuprims::make_stencil_update;
  constexpr auto star = gpuprims::stencil_shape::star;
  (void)gpuprims::apply_stencil1d<1>(in, out, 1, make_stencil_update<1>(mean_of_axes<1>{}),
                                     gpuprims::boundary::clamp(), s);
  (void)gpuprims::apply_stencil1d_fused<1, 4>(in, out, 1, make_stencil_update<1>(mean_of_axes<1>{}),
                                              gpuprims::boundary::clamp(), s);
  (void)gpuprims::apply_stencil2d<1, star>(in, out, 1, 1, 1, 1,
                                           make_stencil_update<1>(mean_of_axes<2>{}),
                                           gpuprims::boundary::clamp(), s);
  (void)gpuprims::apply_stencil2d_fused<1, star, 4>(in, out, 1, 1, 1, 1,
                                                    make_stencil_update<1>(mean_of_axes<2>{}),
                                                    gpuprims::boundary::clamp(), s);
  (void)gpuprims::apply_stencil3d<1, star>(in, out, 1, 1, 1, 1, 1, 1, 1,
                                           make_stencil_update<1>(mean_of_axes<3>{}),
                                           gpuprims::boundary::clamp(), s);
  (void)gpuprims::apply_stencil3d_fused<1, star, 4>(in, out, 1, 1, 1, 1, 1, 1, 1,
                                                    make_stencil_update<1>(mean_of_axes<3>{}),
                                                    gpuprims::boundary::clamp(), s);
}

__global__ void user_stencil3d(const float* in, float* out, std::size_t depth, std::size_t rows,
                               std::size_t cols) {
  using stencil_t = gpuprims::stencil3d<1, gpuprims::stencil_shape::star, float, 32, 4, 2>;
  __shared__ stencil_t::storage st;
  const gpuprims::stencil3d_weights<float, 1> w{};
  stencil_t(st).apply(in, cols, rows * cols, out, cols, rows * cols, cols, rows, depth, 0, 0, 0,
                      depth, w, gpuprims::boundary::clamp());
}

template <class T>
void scan_ladder(cudaStream_t s) {
  using gpuprims::ladder::scan_rung;
  const T* in = nullptr;
  T* out = nullptr;
  (void)gpuprims::ladder::inclusive_scan<scan_rung::hillis_steele>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::blelloch>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::blelloch_padded>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::warp_shuffle>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::reduce_then_scan>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::chained>(in, out, 0, nullptr, 0, s);
  (void)gpuprims::ladder::inclusive_scan<scan_rung::decoupled_lookback>(in, out, 0, nullptr, 0, s);
}

template <class T>
void reduce_ladder(cudaStream_t s) {
  using gpuprims::ladder::reduce_rung;
  const T* in = nullptr;
  T* out = nullptr;
  (void)gpuprims::ladder::reduce<reduce_rung::reduce0_interleaved_modulo>(in, out, 1, nullptr, 0,
                                                                          s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce1_interleaved_strided>(in, out, 1, nullptr, 0,
                                                                           s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce2_sequential>(in, out, 1, nullptr, 0, s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce3_first_add_during_load>(in, out, 1, nullptr, 0,
                                                                             s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce4_unrolled_last_warp>(in, out, 1, nullptr, 0,
                                                                          s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce5_complete_unroll>(in, out, 1, nullptr, 0, s);
  (void)gpuprims::ladder::reduce<reduce_rung::reduce6_cascading>(in, out, 1, nullptr, 0, s);
  (void)gpuprims::ladder::reduce<reduce_rung::warp_shuffle_cascading>(in, out, 1, nullptr, 0, s);
}

template <int Rad, class T>
void stencils(cudaStream_t s) {
  const T* in = nullptr;
  T* out = nullptr;
  const gpuprims::stencil_weights<T, Rad> w{};
  (void)gpuprims::apply_stencil1d<Rad>(in, out, 1, w, gpuprims::boundary::mirror(), s);
  (void)gpuprims::apply_stencil1d_fused<Rad, 4>(in, out, 1, w, gpuprims::boundary::mirror(), s);
  using gpuprims::ladder::stencil_rung;
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::naive>(in, out, 1, w,
                                                                    gpuprims::boundary{}, s);
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::shared_halo>(in, out, 1, w,
                                                                          gpuprims::boundary{}, s);
  (void)gpuprims::ladder::apply_stencil1d<Rad, stencil_rung::shared_vectorized>(
      in, out, 1, w, gpuprims::boundary{}, s);
}

// The device templates, in user kernels.
template <int BlockSize, class Op>
__global__ void user_scan(const typename Op::value_type* in, typename Op::value_type* out,
                          gpuprims::lookback_tiles<typename Op::value_type> status) {
  using T = typename Op::value_type;
  using scan_t = gpuprims::block_scan<BlockSize, Op>;
  using look_t = gpuprims::lookback<T, Op>;
  __shared__ typename scan_t::storage s;
  __shared__ typename look_t::storage ls;
  look_t look(ls, status, gridDim.x);
  T items[2] = {in[threadIdx.x], in[threadIdx.x + BlockSize]};
  T results[2];
  T total;
  scan_t(s).inclusive_scan(items, results, total);
  T prefix = total;
  if (threadIdx.x < 32) {
    prefix = look.exclusive_prefix_with_init(blockIdx.x, total, T{});
  }
  out[threadIdx.x] =
      results[0] + results[1] + prefix + gpuprims::warp_exclusive_scan<8>(items[0], T{}, Op{});
  look.finish();
}

template <class T>
__global__ void user_copy(const T* in, T* out, std::size_t n) {
  gpuprims::vector_copy<16 / sizeof(T), 2>(in, out, n);
  gpuprims::vector_copy<1>(in, out, n, threadIdx.x, blockDim.x);
}

template <class T, int Tile, int Pad>
__global__ void user_transpose(const T* in, T* out, std::size_t rows, std::size_t cols) {
  using tile_t = gpuprims::tiled_transpose<Tile, Pad, T>;
  __shared__ typename tile_t::storage s;
  tile_t(s).transpose(in, cols, out, rows, rows, cols, blockIdx.y * std::size_t{Tile},
                      blockIdx.x * std::size_t{Tile});
  __syncthreads();
  T items[tile_t::items_per_thread];
  for (int k = 0; k < tile_t::items_per_thread; ++k) {
    items[k] = in[threadIdx.y * tile_t::items_per_thread + k];
  }
  tile_t(s).transpose(items);
  out[threadIdx.x] = items[0];
}

template <int BlockSize, class Op, class Item>
__global__ void user_reduce(const Item* in, typename Op::value_type* out, int valid) {
  using T = typename Op::value_type;
  using reduce_t = gpuprims::block_reduce<BlockSize, Op>;
  __shared__ typename reduce_t::storage s;
  Item items[2] = {in[threadIdx.x], in[threadIdx.x + BlockSize]};
  T a = reduce_t(s).reduce(items);
  __syncthreads();
  a = Op{}(a, reduce_t(s).reduce(static_cast<T>(items[0]), valid));
  __syncthreads();
  a = Op{}(a, reduce_t(s).all_reduce(static_cast<T>(items[1]), valid));
  __syncthreads();
  a = Op{}(a, reduce_t(s).all_reduce(a));
  const T w = gpuprims::warp_reduce(a, Op{}, valid);
  const T g = gpuprims::logical_warp_reduce<4>(a, Op{});
  if (threadIdx.x == 0) {
    *out = Op{}(Op{}(w, g), gpuprims::warp_reduce(a, Op{}));
  }
}

template <int BlockSize, gpuprims::ladder::block_reduce_rung Rung>
__global__ void user_ladder_reduce(const int* in, int* out) {
  using reduce_t = gpuprims::ladder::block_reduce<BlockSize, gpuprims::plus<int>, Rung>;
  __shared__ typename reduce_t::storage s;
  const int a = reduce_t(s).reduce(in[threadIdx.x]);
  __syncthreads();
  const int b = reduce_t(s).all_reduce(a, 33);
  if (threadIdx.x == 0) {
    *out = a + b;
  }
}

struct smooth {
  static constexpr int radius = 2;
  __host__ __device__ constexpr float operator[](int j) const { return j == 2 ? 0.5f : 0.125f; }
};

template <int Rad, class T, int Items, class Weights>
__global__ void user_stencil(const T* in, T* out, std::size_t n, Weights w) {
  using stencil_t = gpuprims::stencil1d<Rad, T, 128, Items>;
  __shared__ typename stencil_t::storage s;
  stencil_t(s).apply(in, out, n, blockIdx.x * std::size_t{stencil_t::tile}, w,
                     gpuprims::boundary::clamp());
  __syncthreads();
  T outputs[Items];
  stencil_t(s).apply(in, n, 0, w, gpuprims::boundary::periodic(), outputs);
  out[stencil_t::offset(Items - 1)] = outputs[Items - 1];
}

void instantiate(cudaStream_t s) {
  copies<float>(s);
  copies<double>(s);
  copies<__half>(s);
  copies<std::int8_t>(s);
  copies<blob<12, 4>>(s);
  copies<blob<16, 16>>(s);
  transposes<std::uint8_t>(s);
  transposes<__half>(s);
  transposes<float>(s);
  transposes<double>(s);
  transposes<blob<16, 16>>(s);
  reduces<float, float, gpuprims::plus<float>>(s);
  reduces<double, double, gpuprims::plus<double>>(s);
  reduces<__half, float, gpuprims::plus<float>>(s);
  reduces<std::int8_t, long long, gpuprims::plus<long long>>(s);
  reduces<int, int, gpuprims::minimum<int>>(s);
  reduces<long long, long long, gpuprims::maximum<long long>>(s);
  reduces<unsigned, unsigned, gpuprims::bit_xor<unsigned>>(s);
  scans<float, float, gpuprims::plus<float>>(s);
  scans<double, double, gpuprims::plus<double>>(s);
  scans<__half, float, gpuprims::plus<float>>(s);
  scans<std::int8_t, long long, gpuprims::plus<long long>>(s);
  scans<unsigned, unsigned, gpuprims::maximum<unsigned>>(s);
  histograms<std::uint8_t>(s);
  histograms<std::uint32_t>(s);
  histograms<float>(s);
  user_histogram<<<1, 128, 0, s>>>(nullptr, nullptr);
  gemms(s);
  user_gemm<<<1, 256, 0, s>>>(nullptr, nullptr, nullptr, 0);
  stencils2d<1, gpuprims::stencil_shape::star, float>(s);
  stencils2d<4, gpuprims::stencil_shape::box, double>(s);
  stencils2d<2, gpuprims::stencil_shape::star, double>(s);
  stencil2d_rung<gpuprims::ladder::stencil2d_rung::naive>(s);
  stencil2d_rung<gpuprims::ladder::stencil2d_rung::shared_tile>(s);
  stencil2d_rung<gpuprims::ladder::stencil2d_rung::coarsened>(s);
  stencil2d_rung<gpuprims::ladder::stencil2d_rung::register_streaming>(s);
  stencil3d_rung<gpuprims::ladder::stencil3d_rung::naive>(s);
  stencil3d_rung<gpuprims::ladder::stencil3d_rung::shared_ring>(s);
  user_stencil2d<<<1, dim3(32, 4), 0, s>>>(nullptr, nullptr, 0, 0);
  user_warp_stencil3d<<<1, 32, 0, s>>>(nullptr, nullptr, 0);
  stencils3d<1, gpuprims::stencil_shape::star, float>(s);
  stencils3d<1, gpuprims::stencil_shape::box, float>(s);
  stencils3d<4, gpuprims::stencil_shape::box, double>(s);
  stencils3d<3, gpuprims::stencil_shape::star, double>(s);
  stencil_updates(s);
  user_stencil3d<<<1, dim3(32, 4), 0, s>>>(nullptr, nullptr, 0, 0, 0);
  selects<std::int8_t>(s);
  selects<float>(s);
  selects<double>(s);
  reduce_ladder<int>(s);
  reduce_ladder<float>(s);
  scan_ladder<int>(s);
  scan_ladder<double>(s);
  stencils<1, float>(s);
  stencils<3, float>(s);
  stencils<4, double>(s);
  stencils<5, float>(s);
  stencils<8, double>(s);
  stencils<16, float>(s);
  stencils<16, double>(s);
  user_copy<float><<<1, 1, 0, s>>>(nullptr, nullptr, 0);
  user_copy<std::int8_t><<<1, 1, 0, s>>>(nullptr, nullptr, 0);
  user_transpose<float, 32, 1><<<1, 1, 0, s>>>(nullptr, nullptr, 0, 0);
  user_transpose<double, 64, 1><<<1, 1, 0, s>>>(nullptr, nullptr, 0, 0);
  user_reduce<256, gpuprims::plus<float>, __nv_bfloat16><<<1, 1, 0, s>>>(nullptr, nullptr, 0);
  user_scan<128, gpuprims::plus<float>><<<1, 1, 0, s>>>(nullptr, nullptr, {});
  user_scan<64, gpuprims::plus<double>><<<1, 1, 0, s>>>(nullptr, nullptr, {});
  user_reduce<992, gpuprims::maximum<double>, double><<<1, 1, 0, s>>>(nullptr, nullptr, 0);
  using gpuprims::ladder::block_reduce_rung;
  user_ladder_reduce<96, block_reduce_rung::interleaved_modulo><<<1, 1, 0, s>>>(nullptr, nullptr);
  user_ladder_reduce<96, block_reduce_rung::interleaved_strided><<<1, 1, 0, s>>>(nullptr, nullptr);
  user_ladder_reduce<1024, block_reduce_rung::sequential><<<1, 1, 0, s>>>(nullptr, nullptr);
  user_ladder_reduce<256, block_reduce_rung::unrolled_last_warp><<<1, 1, 0, s>>>(nullptr, nullptr);
  user_ladder_reduce<256, block_reduce_rung::complete_unroll><<<1, 1, 0, s>>>(nullptr, nullptr);
  user_stencil<2, float, 4, smooth><<<1, 1, 0, s>>>(nullptr, nullptr, 0, smooth{});
  user_stencil<3, double, 3, gpuprims::stencil_weights<double, 3>>
      <<<1, 1, 0, s>>>(nullptr, nullptr, 0, {});
}

}  // namespace every_arch
