// Compile-time structure of programs: queue indices, phase ranges, the task concept.
#include <gtest/gtest.h>

#include "runtime/task.hpp"

namespace apiary {
namespace {

struct Log {
  using Item = int;
  static constexpr int threads = 1;
  static constexpr int shared_bytes = 0;
};
struct CreateLeg {
  using Item = double;
  static constexpr int threads = 64;
  static constexpr int shared_bytes = 256;
};
struct CreateTop {
  using Item = int;
  static constexpr int threads = 8;
  static constexpr int shared_bytes = 0;
  static constexpr const char* name = "Top";
};
struct AssembleTable {
  struct Item {
    int a, b, c, d, e;
  };
  static constexpr int threads = 128;
  static constexpr int shared_bytes = 0;
};

using P = Program<Phaseless<Log>, Phase<CreateLeg, CreateTop>, Phase<AssembleTable>>;

TEST(Program, QueuesArePhaselessFirstThenPhasesInOrder) {
  static_assert(P::type_count == 4 && P::phaseless_count == 1 && P::phase_count == 2);
  static_assert(P::queue_of<Log> == 0 && P::queue_of<CreateLeg> == 1 && P::queue_of<CreateTop> == 2 &&
                P::queue_of<AssembleTable> == 3);
  static_assert(P::phase_begin[0] == 1 && P::phase_begin[1] == 3 && P::phase_begin[2] == 4);
  static_assert(P::phase_of_queue[0] == -1 && P::phase_of_queue[1] == 0 && P::phase_of_queue[2] == 0 &&
                P::phase_of_queue[3] == 1);
  static_assert(P::max_threads == 128 && P::max_item_bytes == sizeof(AssembleTable::Item));
  static_assert(!P::contains<int>);
  SUCCEED();
}

TEST(Program, TypeNamesAreUnqualifiedOrDeclared) {
  const auto names = P::type_names();
  EXPECT_EQ(names[0], "Log");
  EXPECT_EQ(names[1], "CreateLeg");
  EXPECT_EQ(names[2], "Top");
  EXPECT_EQ(names[3], "AssembleTable");
}

struct NoItem {
  static constexpr int threads = 32;
  static constexpr int shared_bytes = 0;
};
struct OddWorker {
  using Item = int;
  static constexpr int threads = 48;
  static constexpr int shared_bytes = 0;
};
struct TooWide {
  using Item = int;
  static constexpr int threads = 2048;
  static constexpr int shared_bytes = 0;
};

TEST(TaskConcept, AcceptsValidAndRejectsInvalidTypes) {
  static_assert(TaskType<Log> && TaskType<CreateLeg> && TaskType<AssembleTable>);
  static_assert(!TaskType<NoItem> && !TaskType<OddWorker> && !TaskType<TooWide>);
  static_assert(valid_worker_size(1) && valid_worker_size(16) && valid_worker_size(96));
  static_assert(!valid_worker_size(0) && !valid_worker_size(3) && !valid_worker_size(40));
  SUCCEED();
}

}  // namespace
}  // namespace apiary
