# How the build guards the layering (sim -> testbench -> hw -> tlm, rtl beside hw).
#
# Every include in the tree is rooted at a layer ("hw/...", "tlm/..."). Instead of one include
# root for everything, each target gets a folder of links to exactly the layers it may use, so
# an include of a layer above (hw including testbench/) does not compile.
#
# Kernel-free libraries and unit tests also get cmake/no-kernel first on their include path:
# its <systemc> and <tlm> stand-ins stop the build with an error, so a pure class that starts
# to need the kernel is caught where it happens.

# uetsim_layer_view(target layer...): `target` and whatever links it see these layers.
function(uetsim_layer_view target)
  list(JOIN ARGN "+" view)
  set(dir ${CMAKE_BINARY_DIR}/layers/${view})
  foreach(layer IN LISTS ARGN)
    if(NOT IS_SYMLINK ${dir}/${layer})
      file(MAKE_DIRECTORY ${dir})
      file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${layer} ${dir}/${layer} SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC ${dir})
endfunction()

# uetsim_kernel_free(target): the target's own sources cannot include SystemC or TLM.
function(uetsim_kernel_free target)
  target_include_directories(${target} BEFORE PRIVATE ${CMAKE_SOURCE_DIR}/cmake/no-kernel)
endfunction()

# uetsim_library(name [KERNEL_FREE] LAYERS layer... SOURCES file... [LINK lib...])
function(uetsim_library name)
  cmake_parse_arguments(A "KERNEL_FREE" "" "LAYERS;SOURCES;LINK" ${ARGN})
  add_library(${name} STATIC ${A_SOURCES})
  uetsim_layer_view(${name} ${A_LAYERS})
  target_link_libraries(${name} PUBLIC ${A_LINK})
  target_compile_options(${name} PRIVATE ${UETSIM_WARNINGS})
  if(A_KERNEL_FREE)
    uetsim_kernel_free(${name})
  else()
    uetsim_systemc_pch(${name} ${A_LAYERS})
  endif()
  uetsim_unity(${name})
endfunction()

# uetsim_unity(target): with UETSIM_UNITY, the target's sources compile in unity batches of 8
# (docs/performance.md, "First run"). Only the product libraries (uetsim_library) take it: the
# test executables and the Verilated blocks (uetsim_verilated_unity) keep their own builds. A
# source with options of its own (sim/rtl_build.cpp's COMPILE_DEFINITIONS) stays separate, as
# CMake does.
function(uetsim_unity target)
  if(UETSIM_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # GCC takes a source inside a unity file for a header, and warns when one of its classes
    # holds a type of its anonymous namespace (testbench/run/run.cpp's simulation::state); the
    # plain build keeps the warning for real headers.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()

# uetsim_systemc_pch(target layer...): SystemC's and the standard library's headers, which every
# source of a SystemC library parses first (about a third of its compile time), precompiled once
# per target (UETSIM_PCH, on by default; docs/performance.md, "First run"). A target that may
# include Verilated headers (it sees the rtl layer) has them first: they must come before
# <systemc> (rtl/verilated_includes.h).
function(uetsim_systemc_pch target)
  if(NOT UETSIM_PCH)
    return()
  endif()
  set(first "")
  if("rtl" IN_LIST ARGN)
    set(first <rtl/verilated_includes.h>)
  endif()
  target_precompile_headers(${target} PRIVATE ${first} <systemc> <tlm> <algorithm> <cstdint>
                            <functional> <memory> <string> <unordered_map> <vector>)
endfunction()
