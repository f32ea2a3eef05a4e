// Errors a run reports. Each says what went wrong in terms a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace apiary {

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A queue (or the waiting storage) filled up: raise its capacity in RunOptions.
class OverflowError : public RunError {
 public:
  using RunError::RunError;
};

// The run ended with tasks whose dependencies were never fully resolved.
class TasksLeftWaitingError : public RunError {
 public:
  using RunError::RunError;
};

// No task completed for RunOptions::watchdog_seconds: the run was aborted.
class WatchdogError : public RunError {
 public:
  using RunError::RunError;
};

}  // namespace apiary
