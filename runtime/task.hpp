// Task types, phases and programs: the compile-time description of what a run executes.
//
// A task type is a plain struct:
//
//   struct Square {
//     using Item = int;                        // the work item, trivially copyable
//     static constexpr int threads = 32;       // worker size: 1,2,4,8,16 or a multiple of 32 up to 1024
//     static constexpr int shared_bytes = 0;   // shared memory per task
//     template <class Ctx> __device__ static void execute(const Item& item, Ctx& ctx);
//   };
//
// A program lists task types in phases:
//
//   using P = apiary::Program<apiary::Phaseless<Log>, apiary::Phase<A, B>, apiary::Phase<C>>;
//
// Every task type gets one queue; queue indices are assigned in the order the types
// appear (phaseless first), so each phase is a contiguous range of queue indices and
// "is this queue in the current phase" is a range check.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "runtime/portable.hpp"

namespace apiary {

// True for the worker sizes the schedulers can group: powers of two below a warp
// (several tasks share a warp) and whole warps up to a full block.
constexpr bool valid_worker_size(int threads) {
  if (threads >= 1 && threads < 32) return (threads & (threads - 1)) == 0;
  return threads >= 32 && threads <= 1024 && threads % 32 == 0;
}

template <class T>
concept TaskType = requires {
  typename T::Item;
  { T::threads } -> std::convertible_to<int>;
  { T::shared_bytes } -> std::convertible_to<int>;
} && std::is_trivially_copyable_v<typename T::Item> && valid_worker_size(T::threads) &&
                   (T::shared_bytes >= 0);

// Readable diagnostics for the commonest mistakes, used where a program is formed.
template <class T>
constexpr bool check_task_type() {
  static_assert(requires { typename T::Item; }, "a task type needs `using Item = ...;` (its work item)");
  static_assert(requires { T::threads; }, "a task type needs `static constexpr int threads` (its worker size)");
  static_assert(requires { T::shared_bytes; },
                "a task type needs `static constexpr int shared_bytes` (shared memory per task)");
  static_assert(std::is_trivially_copyable_v<typename T::Item>, "a work item must be trivially copyable");
  static_assert(valid_worker_size(T::threads),
                "worker size must be 1, 2, 4, 8, 16 or a multiple of 32 up to 1024");
  static_assert(T::shared_bytes >= 0, "shared_bytes must not be negative");
  return TaskType<T>;
}

template <class... Ts>
struct Phase {
  static constexpr std::size_t size = sizeof...(Ts);
};

template <class... Ts>
struct Phaseless {
  static constexpr std::size_t size = sizeof...(Ts);
};

template <class... Ts>
struct TypeList {
  static constexpr std::size_t size = sizeof...(Ts);
};

namespace detail {

template <class A, class B>
struct Concat;
template <class... As, class... Bs>
struct Concat<TypeList<As...>, TypeList<Bs...>> {
  using type = TypeList<As..., Bs...>;
};

template <class Group>
struct GroupTypes;
template <class... Ts>
struct GroupTypes<Phase<Ts...>> {
  using type = TypeList<Ts...>;
};
template <class... Ts>
struct GroupTypes<Phaseless<Ts...>> {
  using type = TypeList<Ts...>;
};

template <class G>
struct IsPhaseless : std::false_type {};
template <class... Ts>
struct IsPhaseless<Phaseless<Ts...>> : std::true_type {};

template <std::size_t I, class List>
struct At;
template <std::size_t I, class T, class... Ts>
struct At<I, TypeList<T, Ts...>> : At<I - 1, TypeList<Ts...>> {};
template <class T, class... Ts>
struct At<0, TypeList<T, Ts...>> {
  using type = T;
};

template <class T, class List>
struct IndexOf;
template <class T, class... Ts>
struct IndexOf<T, TypeList<Ts...>> {
  static constexpr std::size_t value = [] {
    constexpr bool same[] = {std::is_same_v<T, Ts>..., false};
    for (std::size_t i = 0; i < sizeof...(Ts); ++i)
      if (same[i]) return i;
    return sizeof...(Ts);
  }();
};

template <class... Groups>
struct Flatten {
  using type = TypeList<>;
};
template <class G, class... Groups>
struct Flatten<G, Groups...> {
  using type = typename Concat<typename GroupTypes<G>::type, typename Flatten<Groups...>::type>::type;
};

template <class... Groups>
struct SplitGroups;
template <>
struct SplitGroups<> {
  using phaseless = TypeList<>;
  using phased = TypeList<>;
};
template <class G, class... Gs>
struct SplitGroups<G, Gs...> {
  using rest = SplitGroups<Gs...>;
  using phaseless = std::conditional_t<IsPhaseless<G>::value,
                                       typename Concat<TypeList<G>, typename rest::phaseless>::type,
                                       typename rest::phaseless>;
  using phased = std::conditional_t<IsPhaseless<G>::value, typename rest::phased,
                                    typename Concat<TypeList<G>, typename rest::phased>::type>;
};

template <class List>
struct GroupsToTypes;
template <class... Gs>
struct GroupsToTypes<TypeList<Gs...>> {
  using type = typename Flatten<Gs...>::type;
};

template <class List>
struct GroupSizes;
template <class... Gs>
struct GroupSizes<TypeList<Gs...>> {
  static constexpr std::array<std::size_t, sizeof...(Gs)> value{Gs::size...};
};

// The name of a type from the compiler's function signature, e.g. "SolveSubgraph".
template <class T>
constexpr std::string_view raw_type_name() {
#if defined(__clang__) || defined(__GNUC__)
  std::string_view s = __PRETTY_FUNCTION__;
  const auto start = s.find("T = ") + 4;
  auto end = s.find_first_of(";]", start);
  return s.substr(start, end - start);
#else
  return "task";
#endif
}

}  // namespace detail

template <class T>
std::string type_name() {
  if constexpr (requires { T::name; }) {
    return std::string(T::name);
  } else {
    std::string s(detail::raw_type_name<T>());
    // Keep the unqualified name: "apiary::tasks::Foo" -> "Foo".
    const auto templ = s.find('<');
    const auto colon = s.rfind("::", templ == std::string::npos ? s.npos : templ);
    return colon == std::string::npos ? s : s.substr(colon + 2);
  }
}

// The compile-time description of a program: its task types (one queue each) and phases.
template <class... Groups>
struct Program {
 private:
  using split = detail::SplitGroups<Groups...>;

 public:
  using phaseless_types = typename detail::GroupsToTypes<typename split::phaseless>::type;
  using phased_types = typename detail::GroupsToTypes<typename split::phased>::type;
  // Queue order: phaseless types first, then the phases in order.
  using types = typename detail::Concat<phaseless_types, phased_types>::type;

  static constexpr std::size_t type_count = types::size;
  static constexpr std::size_t phaseless_count = phaseless_types::size;
  static constexpr std::size_t phase_count = split::phased::size;

  static_assert(type_count > 0, "a program needs at least one task type");

  template <std::size_t I>
  using type_at = typename detail::At<I, types>::type;

  template <class T>
  static constexpr std::size_t queue_of = detail::IndexOf<T, types>::value;

  template <class T>
  static constexpr bool contains = queue_of<T> < type_count;

  // Queue range [phase_begin[p], phase_begin[p + 1]) of phase p.
  static constexpr std::array<std::size_t, phase_count + 1> phase_begin = [] {
    std::array<std::size_t, phase_count + 1> b{};
    b[0] = phaseless_count;
    if constexpr (phase_count > 0) {
      constexpr auto sizes = detail::GroupSizes<typename split::phased>::value;
      for (std::size_t p = 0; p < phase_count; ++p) b[p + 1] = b[p] + sizes[p];
    }
    return b;
  }();

  // Phase of each queue, -1 for phaseless types.
  static constexpr std::array<int, type_count> phase_of_queue = [] {
    std::array<int, type_count> ph{};
    for (std::size_t q = 0; q < type_count; ++q) {
      ph[q] = -1;
      if constexpr (phase_count > 0) {
        for (std::size_t p = 0; p < phase_count; ++p)
          if (q >= phase_begin[p] && q < phase_begin[p + 1]) ph[q] = static_cast<int>(p);
      }
    }
    return ph;
  }();

  static constexpr int max_threads = [] {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      int m = 1;
      ((m = m > type_at<I>::threads ? m : type_at<I>::threads), ...);
      return m;
    }(std::make_index_sequence<type_count>{});
  }();

  static constexpr std::size_t max_item_bytes = [] {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      std::size_t m = 1;
      ((m = m > sizeof(typename type_at<I>::Item) ? m : sizeof(typename type_at<I>::Item)), ...);
      return m;
    }(std::make_index_sequence<type_count>{});
  }();

  static std::array<std::string, type_count> type_names() {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<std::string, type_count>{type_name<type_at<I>>()...};
    }(std::make_index_sequence<type_count>{});
  }

 private:
  static constexpr bool all_valid = [] {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (check_task_type<type_at<I>>() && ...);
    }(std::make_index_sequence<type_count>{});
  }();
  static_assert(all_valid);
};

// Calls f.template operator()<I>() for the queue index I == q (a switch over the
// program's types that the compiler turns into a jump table).
template <class P, class F>
APIARY_HD constexpr void dispatch_queue(std::size_t q, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((q == I ? (f.template operator()<I>(), 0) : 0), ...);
  }(std::make_index_sequence<P::type_count>{});
}

template <class P, class F>
APIARY_HD constexpr void for_each_queue(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<I>(), ...);
  }(std::make_index_sequence<P::type_count>{});
}

}  // namespace apiary
