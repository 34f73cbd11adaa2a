// The public types every primitive shares: the reduction operators, and the stencils' boundary
// rules and run-time weights. Usable on the host and in device code.
#pragma once

#include <gpuprims/config.cuh>

#include <cuda_runtime.h>
#include <cuda/std/limits>

namespace gpuprims {

// ---- operators -------------------------------------------------------------------------------

/// Binary operators with the accumulator type they reduce in (`value_type`) and their identity
/// element, `identity()`.
template <class T>
struct plus {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct minimum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
  /// +infinity where T has one, else T's largest value.
  __host__ __device__ static T identity() {
    using limits = cuda::std::numeric_limits<T>;
    if constexpr (limits::has_infinity) {
      return limits::infinity();
    } else {
      return limits::max();
    }
  }
};
template <class T>
struct maximum {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
  /// -infinity where T has one, else T's lowest value.
  __host__ __device__ static T identity() {
    using limits = cuda::std::numeric_limits<T>;
    if constexpr (limits::has_infinity) {
      return -limits::infinity();
    } else {
      return limits::lowest();
    }
  }
};
template <class T>
struct bit_and {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a & b; }
  __host__ __device__ static T identity() { return static_cast<T>(~T(0)); }
};
template <class T>
struct bit_or {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a | b; }
  __host__ __device__ static T identity() { return T(0); }
};
template <class T>
struct bit_xor {
  using value_type = T;
  __host__ __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
  __host__ __device__ static T identity() { return T(0); }
};

// ---- stencils ----------------------------------------------------------------------------------

/// What a stencil reads at positions outside [0, n).
enum class boundary_mode {
  constant,  ///< a fixed value (zero by default)
  clamp,     ///< the nearest end: in[0] before the start, in[n - 1] past the end
  periodic,  ///< in[i mod n]
  mirror,    ///< reflected about the end elements without repeating them: in[-1] = in[1], in[n] =
             ///< in[n - 2]
};

/// A boundary rule: boundary::clamp(), boundary::periodic(), boundary::mirror() or
/// boundary::constant(v), on the host or in a kernel; the default is constant zero.
struct boundary {
  boundary_mode mode = boundary_mode::constant;
  double value = 0;  ///< for constant; converted to the element type

  __host__ __device__ static constexpr boundary constant(double v = 0) {
    return {boundary_mode::constant, v};
  }
  __host__ __device__ static constexpr boundary clamp() { return {boundary_mode::clamp, 0}; }
  __host__ __device__ static constexpr boundary periodic() { return {boundary_mode::periodic, 0}; }
  __host__ __device__ static constexpr boundary mirror() { return {boundary_mode::mirror, 0}; }
};

/// Stencil weights given at run time: w[j] multiplies in[i - Rad + j], j in [0, 2 Rad]. Passed to
/// the kernel by value (kernel parameters live in the constant bank: as fast as __constant__
/// memory, and safe when several streams use different weights). Weights known at compile time can
/// be any type with `static constexpr int radius` and a constexpr `operator[](int) const`; the
/// compiler then folds them.
template <class T, int Rad>
struct stencil_weights {
  static constexpr int radius = Rad;
  T w[2 * Rad + 1];
  __host__ __device__ constexpr T operator[](int j) const { return w[j]; }
};

/// The neighbourhood of a 2D stencil: the point and its axes out to the radius (a star: 5 points
/// at radius 1), or the whole (2 Rad + 1)^2 square (a box: 9 points at radius 1).
enum class stencil_shape { star, box };

/// 2D stencil weights given at run time: w[dy + Rad][dx + Rad] multiplies in[y + dy][x + dx]. A
/// star reads only the entries with dx == 0 or dy == 0 (the others are ignored). Weights known at
/// compile time can be any type with `static constexpr int radius` and a constexpr
/// `operator()(int dy, int dx) const`.
template <class T, int Rad>
struct stencil2d_weights {
  static constexpr int radius = Rad;
  T w[2 * Rad + 1][2 * Rad + 1];
  __host__ __device__ constexpr T operator()(int dy, int dx) const { return w[dy + Rad][dx + Rad]; }
};

/// A boundary rule per axis of a 2D grid; one rule converts to both axes. Outside the grid the y
/// rule applies first (a constant y rule gives its value), then the x rule.
struct boundary2d {
  boundary x{}, y{};
  constexpr boundary2d() = default;
  __host__ __device__ constexpr boundary2d(boundary both) : x(both), y(both) {}  // NOLINT
  __host__ __device__ constexpr boundary2d(boundary along_x, boundary along_y)
      : x(along_x), y(along_y) {}
};

/// 3D stencil weights given at run time: w[dz + Rad][dy + Rad][dx + Rad] multiplies
/// in[z + dz][y + dy][x + dx]. A star reads only the entries on the three axes (two of dz, dy, dx
/// zero). Weights known at compile time can be any type with `static constexpr int radius` and a
/// constexpr `operator()(int dz, int dy, int dx) const`.
template <class T, int Rad>
struct stencil3d_weights {
  static constexpr int radius = Rad;
  T w[2 * Rad + 1][2 * Rad + 1][2 * Rad + 1];
  __host__ __device__ constexpr T operator()(int dz, int dy, int dx) const {
    return w[dz + Rad][dy + Rad][dx + Rad];
  }
};

/// A time step given as a function of the neighbourhood instead of weights (the heat equation, a
/// Jacobi update, anything nonlinear): the launchers and block templates that take weights take
/// it in their place. `f(at)` returns the point's new value (converted to the element type);
/// `at(dx)` in 1D, `at(dy, dx)` in 2D and `at(dz, dy, dx)` in 3D give the neighbours of the last
/// step, every offset within Rad on each axis (the whole box, whatever the launcher's shape), the
/// positions outside the grid supplied by the boundary rules. F is trivially copyable (it travels
/// to the kernel by value, like weights) and callable in device code: a struct with a
/// `__device__` (or `__host__ __device__`) call operator, or an `__device__` lambda under nvcc's
/// --extended-lambda. The fused launchers apply it Steps times with the same bits as Steps single
/// steps.
///
///   struct heat {  // u + k (laplacian of u), k = 0.2
///     template <class At>
///     __host__ __device__ float operator()(const At& at) const {
///       const float u = at(0, 0);
///       return u + 0.2f * (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1) - 4.f * u);
///     }
///   };
///   const auto step = gpuprims::make_stencil_update<1>(heat{});
template <int Rad, class F>
struct stencil_update {
  static constexpr int radius = Rad;
  F f;
};

/// stencil_update<Rad, F>{f}, with F deduced.
template <int Rad, class F>
__host__ __device__ constexpr stencil_update<Rad, F> make_stencil_update(F f) {
  return {f};
}

/// A boundary rule per axis of a 3D grid; one rule converts to all three. Outside the grid the z
/// rule applies first (a constant z rule gives its value), then the y rule, then the x rule.
struct boundary3d {
  boundary x{}, y{}, z{};
  constexpr boundary3d() = default;
  __host__ __device__ constexpr boundary3d(boundary all) : x(all), y(all), z(all) {}  // NOLINT
  __host__ __device__ constexpr boundary3d(boundary along_x, boundary along_y, boundary along_z)
      : x(along_x), y(along_y), z(along_z) {}
};

}  // namespace gpuprims
