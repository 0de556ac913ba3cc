# uetsim_verilated_unity(target): each Verilated block of `target` (the sources verilate() wrote
# under V<prefix>.dir/) compiles as one unity file, as Verilator's own makefiles do with their
# __ALL.cpp: a block's nine files parse the same Verilator headers, which are most of their
# compile time (docs/performance.md, "First run"). A source with options of its own (in a
# sanitizer build, the trace files) stays separate: call this after setting them.
function(uetsim_verilated_unity target)
  get_target_property(srcs ${target} SOURCES)
  foreach(src ${srcs})
    get_source_file_property(opts ${src} COMPILE_OPTIONS)
    if(src MATCHES "/(V[A-Za-z0-9_]+)\\.dir/" AND NOT opts)
      set_property(SOURCE ${src} PROPERTY UNITY_GROUP ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
