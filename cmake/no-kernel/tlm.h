// Pure logic must not see the SystemC kernel: this header stands first on the include path of
// the kernel-free libraries and unit tests (see cmake/UetsimLayers.cmake).
#error "kernel-free code includes <tlm.h>: move the SystemC part into a module, or the file out of the pure library"
