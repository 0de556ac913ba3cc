# The block libraries the tests load, each built once by `uetsim rtl-build` (the ctest fixture
# rtl_libraries, tests/CMakeLists.txt): the project's own entropy_lb.sv, its XORSHIFT_BIT mutant
# (the same source with -DUETSIM_MUTANT_XORSHIFT_BIT), the seams' toy flow hash, and the toy with
# a Verilog $stop at the first UDP packet (-DUETSIM_TOY_STOP_ON_UDP), and a user's entropy load
# balancer of two files with one more pipeline stage (tests/rtl/blocks/entropy_lb_delayed.sv).
#   cmake -DUETSIM=<bin/uetsim> -DSOURCE=<source tree> -DOUT=<folder> -P build_rtl_libraries.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
function(rtl_build)
  execute_process(COMMAND ${UETSIM} rtl-build ${ARGN} -j 2 RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "uetsim rtl-build ${ARGN}: exit code ${rc}")
  endif()
endfunction()
rtl_build(${SOURCE}/rtl/entropy_lb/entropy_lb.sv --top entropy_lb --as EntropyLoadBalancer
  --out ${OUT}/entropy_lb.so)
rtl_build(${SOURCE}/rtl/entropy_lb/entropy_lb.sv --top entropy_lb --as EntropyLoadBalancer
  -DUETSIM_MUTANT_XORSHIFT_BIT --out ${OUT}/entropy_lb_xorshift_bit.so)
rtl_build(${SOURCE}/tests/seams/toy_rtl/xor_flow_hash.sv --top xor_flow_hash --as FlowHash
  --out ${OUT}/xor_flow_hash.so)
rtl_build(${SOURCE}/tests/seams/toy_rtl/xor_flow_hash.sv --top xor_flow_hash --as FlowHash
  -DUETSIM_TOY_STOP_ON_UDP --out ${OUT}/xor_flow_hash_stop.so)
rtl_build(${SOURCE}/tests/rtl/blocks/entropy_lb_delayed.sv ${SOURCE}/rtl/entropy_lb/entropy_lb.sv
  --top entropy_lb_delayed --as EntropyLoadBalancer --out ${OUT}/entropy_lb_delayed.so)
