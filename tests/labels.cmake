# The labels of the GoogleTest cases. CTest includes this file after each GoogleTest program's
# discovered cases (fastblake_gtest_program in tests/CMakeLists.txt), whose names are then in
# fastblake_discovered_tests. Every other test is labelled where it is added. The test presets
# select by label (CMakePresets.json); docs/testing.md has the table of labels and
# presets, and labels_select_every_test checks that every test has a label a preset runs.
#
# A case is kernel, backend, cuda-host or gpu by its suite, and unit otherwise; a kernel case
# also carries kernel-<backend>, the backend it runs on, from its parameter's name.
set(_fastblake_suite_labels
  "^Kernels/|^Blake2(Backends|Differential)\\.|^KernelVariants\\." kernel
  "^Backend(Override|Detection)?\\.|^Variant(s|Override)\\." backend
  "^FakeDevice\\." cuda-host
  "^Gpu(Automatic)?\\." gpu)
# Cases that start threads (the tsan preset runs these), and cases too slow under qemu (4 to 26 s
# each on RISC-V's vector unit) for what they gain there: they test trees, threads, files, the
# offload and Bao, not kernels; the little-endian cross targets and RISC-V leave them out, and
# they run natively and big-endian on s390x.
set(_fastblake_threads_cases
    "^(ThreadPool|ThreadsEnvironment|Blake3Parallel|Allocations|BaoThreads|OffloadThreads)\\."
    "^Blake2Backends\\.(ParallelLeavesOnThreadsMatch|ManyMessagesOnThreads)")
set(_fastblake_qemu_slow_cases
    "^FileHashing\\.(ProgressStepsAtTheirLimits|EveryStrategyMatchesTheInMemoryHash)$"
    "^FileHashing\\.ALengthLimitHashesOneRangeAndOneSubtree$"
    "^Blake2Files\\.ManyFilesInOrderWithTheirErrors$"
    "^Offload\\.APluginMayCallTheLibraryFromItsFunctions$"
    "^FileHashing\\.(WindowsReadInPartsMatchTheInMemoryHash|AMappedFileOutOfThePageCacheIsReadAheadOfTheHashing)$"
    "^Blake3Parallel\\.(OneShotMatchesSerialForEveryThreadCount|UpdateParallelMatchesUpdateInAnyPieces)$"
    "^OffloadFiles\\.AutomaticFileHashingOffloadsWholeSubtrees$"
    "^Blake2Files\\.EveryStrategyAndAlgorithmMatchesTheInMemoryHash$"
    "^(FileHazards|ForkSafety)\\."
    "^Bao(Hostile|Groups|Reader|EncodePieces|Threads|Stream)\\.")
# CTest starts the costliest tests first. A fresh build has no timings yet, so the cases that
# take seconds say so here; otherwise they start last and finish alone on one core.
set(_fastblake_costly_cases
    "^Blake2Differential\\.Libb2ParallelVariants/"
    "^Blake3Parallel\\.(OneShotMatchesSerial|UpdateParallelMatches|ExtendableOutputMatches)"
    "^FileHashing\\.(ProgressStepsAtTheirLimits|EveryStrategyMatchesTheInMemoryHash)$"
    "^(OffloadFiles\\.AutomaticFileHashing|Blake2Files\\.EveryStrategyAndAlgorithm)"
    "^FileHazards\\." "^ForkSafety\\.Children" "^BaoHostile\\."
    "^Kernels/Blake3Differential\\.RandomCases")

function(_fastblake_matches_any out name)
  foreach(pattern IN LISTS ARGN)
    if(name MATCHES "${pattern}")
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

# The labels and cost of the case `name`, into `labels_out` and `cost_out`.
function(_fastblake_labels_of name labels_out cost_out)
  set(labels unit)
  set(rules ${_fastblake_suite_labels})
  while(rules)
    list(POP_FRONT rules pattern label)
    if(name MATCHES "${pattern}")
      set(labels ${label})
      break()
    endif()
  endwhile()
  # Kernels/Suite.Case/avx2_x8, .../avx512_rows512_x16 (a variant) and Blake2Backends.Case/avx2
  # run on avx2, avx512 and avx2.
  if(labels STREQUAL "kernel" AND name MATCHES "/([a-z0-9]+)(_[a-z0-9]+)?(_x[0-9]+)?$")
    list(APPEND labels "kernel-${CMAKE_MATCH_1}")
  endif()
  _fastblake_matches_any(threads "${name}" ${_fastblake_threads_cases})
  if(threads)
    list(APPEND labels threads)
  endif()
  _fastblake_matches_any(qemu_slow "${name}" ${_fastblake_qemu_slow_cases})
  if(qemu_slow)
    list(APPEND labels qemu-slow)
  endif()
  _fastblake_matches_any(costly "${name}" ${_fastblake_costly_cases})
  set(cost 0)
  if(costly)
    set(cost 10)
  endif()
  set(${labels_out} "${labels}" PARENT_SCOPE)
  set(${cost_out} ${cost} PARENT_SCOPE)
endfunction()

function(_fastblake_label_discovered)
  foreach(name IN LISTS fastblake_discovered_tests)
    _fastblake_labels_of("${name}" labels cost)
    set_tests_properties("${name}" PROPERTIES LABELS "${labels}" COST ${cost})
  endforeach()
endfunction()

if(DEFINED fastblake_discovered_tests)
  _fastblake_label_discovered()
  unset(fastblake_discovered_tests)
endif()
