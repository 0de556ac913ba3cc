// An entropy engine of the program's own on host0..host3 only (session::configure_nics): the
// C++ model's answers, counted. Prints how many values it gave.
#include <cstdint>
#include <iostream>
#include <memory>

#include <uetsim/uetsim.h>

#include "hw/nic/uet/entropy/entropy_engine.h"
#include "testbench/scenario.h"

namespace {

uint64_t g_answers = 0;

class counting_engine : public uetsim::entropy_engine
{
public:
    using entropy_engine::entropy_engine;
    uetsim::entropy_answer next(uint32_t slot, uint64_t now_ps) override
    {
        ++g_answers;
        return entropy_engine::next(slot, now_ps);
    }
};

}  // namespace

int sc_main(int argc, char** argv)
{
    uetsim::session s(argc, argv);
    s.configure_nics("host[0-3]", [](const std::string&, uetsim::nic_config& nic) {
        nic.make_entropy_engine = [](const uetsim::nic_engine_context& c) {
            return std::make_unique<counting_engine>(c.contexts);
        };
    });
    try {
        s.elaborate();
    } catch (const uetsim::input_error& e) {
        std::cerr << "engine_program: error: " << e.what() << "\n";
        return 2;
    }
    s.run();
    std::cout << "engine answers: " << g_answers << "\n";
    return s.exit_code();
}
