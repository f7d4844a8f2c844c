// SPDX-License-Identifier: MIT
// Compiles nothing: the target exists to build the precompiled header its suites reuse (tests/CMakeLists.txt).
