// Under AddressSanitizer: tells it once more that the calling thread runs on its own stack.
// SystemC 2.3.4's QuickThreads coroutines announce every switch between thread stacks to ASan
// (__sanitizer_start/finish_switch_fiber); once the kernel has destroyed a terminated thread's
// coroutine, ASan may still hold the main thread's stack to be that coroutine's, which the
// kernel has unmapped. LeakSanitizer's scan at exit then reads the unmapped range and crashes
// ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error"), at random, as the
// test benches whose SC_THREAD returns showed (pcie_link, switch_bench). Called at the end of
// sc_main, after the last simulation, so the scan sees the real stack; nothing is suppressed.
// Without ASan it does nothing.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace uetsim {

inline void sanitizer_restore_thread_stack()
{
#if defined(__SANITIZE_ADDRESS__)
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return;
    void* bottom = nullptr;
    size_t size = 0;
    const int r = pthread_attr_getstack(&a, &bottom, &size);
    pthread_attr_destroy(&a);
    if (r != 0) return;
    void* fake_stack = nullptr;  // the current fake stack, kept across the no-op switch
    __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace uetsim
