# The cases of a GoogleTest program run under an emulator (the cross presets, under qemu-user),
# grouped: one CTest test a suite and set of labels (tests/labels.cmake), which runs its cases in
# one process, and one for each case labels.cmake calls costly, so that CTest spreads those over
# the cores. Each process costs about 80 ms under qemu before its first case (loading, and
# GoogleTest registering a thousand cases): 450 of them were 35 s of a cross preset's tests.
# CTest includes this file (through the one fastblake_gtest_program writes) when it reads the
# tests, with fastblake_group_program, fastblake_group_emulator and fastblake_group_properties
# set. A group is named for its suite, with its labels after an '@' where the suite's cases carry
# different ones (Kernels/Blake3Many.*@kernel,kernel-rvv); a case alone by its own name.
include("${CMAKE_CURRENT_LIST_DIR}/labels.cmake")

execute_process(COMMAND ${fastblake_group_emulator} "${fastblake_group_program}"
                        --gtest_list_tests
                OUTPUT_VARIABLE _listing ERROR_VARIABLE _listing_error RESULT_VARIABLE _status
                TIMEOUT 120)
get_filename_component(_program_name "${fastblake_group_program}" NAME)
if(NOT _status EQUAL 0)
  add_test("${_program_name}_NOT_LISTED" "${CMAKE_COMMAND}" -E echo
           "could not list the cases of ${fastblake_group_program}: ${_status} ${_listing_error}")
  set_tests_properties("${_program_name}_NOT_LISTED" PROPERTIES LABELS unit WILL_FAIL TRUE)
  return()
endif()

string(REPLACE "\n" ";" _lines "${_listing}")
set(_suite "")
set(_groups "")
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^([^ #][^ ]*)\\.( +#.*)?$")
    set(_suite "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "^  ([^ #][^ ]*)( +#.*)?$")
    set(_name "${_suite}.${CMAKE_MATCH_1}")
    if(_name MATCHES "DISABLED_")
      continue()
    endif()
    _fastblake_labels_of("${_name}" _labels _cost)
    # A case that takes seconds runs alone, so that CTest can spread them over the cores.
    if(_cost GREATER 0)
      string(MD5 _group "${_name}")
      set(_alone_${_group} "${_name}")
    else()
      string(MD5 _group "${_suite}|${_labels}")
    endif()
    if(NOT DEFINED _names_${_group})
      list(APPEND _groups ${_group})
      set(_suite_of_${_group} "${_suite}")
      set(_labels_of_${_group} "${_labels}")
      set(_cost_of_${_group} 0)
      if(NOT DEFINED _groups_in_${_suite}_count)
        set(_groups_in_${_suite}_count 0)
      endif()
      math(EXPR _groups_in_${_suite}_count "${_groups_in_${_suite}_count} + 1")
    endif()
    list(APPEND _names_${_group} "${_name}")
    math(EXPR _cost_of_${_group} "${_cost_of_${_group}} + ${_cost}")
  endif()
endforeach()

foreach(_group IN LISTS _groups)
  set(_suite "${_suite_of_${_group}}")
  set(_test "${_suite}.*")
  if(DEFINED _alone_${_group})
    set(_test "${_alone_${_group}}")
  elseif(_groups_in_${_suite}_count GREATER 1)
    list(JOIN _labels_of_${_group} "," _label_text)
    set(_test "${_suite}.*@${_label_text}")
  endif()
  list(JOIN _names_${_group} ":" _filter)
  add_test("${_test}" ${fastblake_group_emulator} "${fastblake_group_program}"
           "--gtest_filter=${_filter}")
  # A filter that matched nothing would pass: it fails.
  set_tests_properties("${_test}" PROPERTIES LABELS "${_labels_of_${_group}}"
                       COST ${_cost_of_${_group}} FAIL_REGULAR_EXPRESSION "Running 0 tests"
                       ${fastblake_group_properties})
endforeach()
