// blocking_target_socket (tlm/blocking_target_socket.h): the target socket of PCIe, host memory
// and the NIC's BAR. It must serve a blocking initiator and a non-blocking one alike, refuse DMI,
// and cost much less memory than tlm_utils::simple_target_socket, which it replaced.
#include <gtest/gtest.h>

#include <malloc.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/allocator_interface.h>
#endif

#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/blocking_target_socket.h"

using namespace uetsim;

namespace {

// A memory that takes 10 ns per access and counts them.
struct timed_memory : sc_core::sc_module
{
    blocking_target_socket<timed_memory> socket;
    unsigned char cell = 0;
    int accesses = 0;

    explicit timed_memory(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), socket("socket")
    {
        socket.register_b_transport(this, &timed_memory::access);
    }

    void access(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
    {
        ++accesses;
        if (t.is_write())
            cell = *t.get_data_ptr();
        else
            *t.get_data_ptr() = cell;
        delay += sc_core::sc_time(10, sc_core::SC_NS);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct initiator : sc_core::sc_module
{
    tlm_utils::simple_initiator_socket<initiator> socket;
    explicit initiator(const sc_core::sc_module_name& n) : sc_core::sc_module(n), socket("socket")
    {
    }
};

struct pair_bench
{
    initiator cpu{"cpu"};
    timed_memory mem{"mem"};
    unsigned char byte = 0;
    tlm::tlm_generic_payload txn;

    pair_bench()
    {
        sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
        cpu.socket.bind(mem.socket);
        txn.set_data_ptr(&byte);
        txn.set_data_length(1);
        txn.set_streaming_width(1);
        txn.set_byte_enable_ptr(nullptr);
        txn.set_address(0);
    }
    void prepare(tlm::tlm_command cmd, unsigned char value)
    {
        byte = value;
        txn.set_command(cmd);
        txn.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    }
};

}  // namespace

TEST(blocking_target_socket, b_transport_reaches_the_module_and_adds_its_delay)
{
    pair_bench b;
    sc_core::sc_time delay(5, sc_core::SC_NS);
    b.prepare(tlm::TLM_WRITE_COMMAND, 0x5a);
    b.cpu.socket->b_transport(b.txn, delay);
    EXPECT_TRUE(b.txn.is_response_ok());
    EXPECT_EQ(delay, sc_core::sc_time(15, sc_core::SC_NS));
    EXPECT_EQ(b.mem.cell, 0x5a);
    EXPECT_EQ(b.mem.accesses, 1);
}

// A non-blocking initiator's BEGIN_REQ completes at once, with the access's time annotated.
TEST(blocking_target_socket, begin_req_completes_at_once_with_the_delay_annotated)
{
    pair_bench b;
    b.mem.cell = 0x33;
    b.prepare(tlm::TLM_READ_COMMAND, 0);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(b.cpu.socket->nb_transport_fw(b.txn, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_TRUE(b.txn.is_response_ok());
    EXPECT_EQ(delay, sc_core::sc_time(10, sc_core::SC_NS));
    EXPECT_EQ(b.byte, 0x33);
    EXPECT_EQ(b.mem.accesses, 1);

    // A phase after BEGIN_REQ (an initiator that does not honour TLM_COMPLETED) runs nothing.
    phase = tlm::END_RESP;
    EXPECT_EQ(b.cpu.socket->nb_transport_fw(b.txn, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_EQ(b.mem.accesses, 1);
}

TEST(blocking_target_socket, refuses_direct_memory_and_debug_access)
{
    pair_bench b;
    tlm::tlm_dmi dmi;
    b.prepare(tlm::TLM_READ_COMMAND, 0);
    b.txn.set_dmi_allowed(true);
    EXPECT_FALSE(b.cpu.socket->get_direct_mem_ptr(b.txn, dmi));
    EXPECT_FALSE(b.txn.is_dmi_allowed());
    EXPECT_EQ(b.cpu.socket->transport_dbg(b.txn), 0u);
    EXPECT_EQ(b.mem.accesses, 0);
}

namespace {

struct with_simple_socket : sc_core::sc_module
{
    tlm_utils::simple_target_socket<with_simple_socket> socket{"socket"};
    explicit with_simple_socket(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
};
struct with_blocking_socket : sc_core::sc_module
{
    blocking_target_socket<with_blocking_socket> socket{"socket"};
    explicit with_blocking_socket(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
};

// Bytes the allocator has handed out and not taken back.
size_t heap_in_use()
{
#if defined(__SANITIZE_ADDRESS__)
    return __sanitizer_get_current_allocated_bytes();
#else
    return mallinfo2().uordblks;
#endif
}

template <class M>
size_t heap_bytes_of(int count, const std::string& prefix)
{
    std::vector<std::unique_ptr<M>> keep;
    keep.reserve(count);
    const size_t before = heap_in_use();
    for (int i = 0; i < count; ++i)
        keep.push_back(std::make_unique<M>((prefix + std::to_string(i)).c_str()));
    return heap_in_use() - before;
}

}  // namespace

// The reason it exists: four of these per UET host, each 1.5 KB or more lighter (about 1.8 KB
// measured: 470 MB on a 65,536-host fabric).
TEST(blocking_target_socket, costs_at_least_1_5_kb_less_than_a_simple_target_socket)
{
    constexpr int n = 2000;
    const size_t simple = heap_bytes_of<with_simple_socket>(n, "simple") / n;
    const size_t blocking = heap_bytes_of<with_blocking_socket>(n, "blocking") / n;
    EXPECT_GE(simple, blocking + 1500)
        << "per module: blocking " << blocking << " B, simple " << simple << " B";
}
