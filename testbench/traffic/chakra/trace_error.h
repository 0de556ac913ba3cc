// What is wrong with a Chakra trace: its message names the file, the node where known, and the
// problem ("t/llama.3.et: node 17: unknown collective comm_type 12").
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace uetsim::chakra {

class trace_error : public std::runtime_error
{
public:
    // A message already naming the file (and the node): "<file>: node <id>: <what>".
    explicit trace_error(const std::string& message) : std::runtime_error(message) {}
    // A problem of the file as a whole (or of a message that could not be read as a node).
    trace_error(const std::string& file, const std::string& what)
        : std::runtime_error(file + ": " + what), m_file(file)
    {
    }
    trace_error(const std::string& file, uint64_t node_id, const std::string& what)
        : std::runtime_error(file + ": node " + std::to_string(node_id) + ": " + what)
        , m_file(file)
        , m_node(node_id)
    {
    }

    // What the two- and three-argument constructors were given (empty, nullopt otherwise).
    const std::string& file() const { return m_file; }
    const std::optional<uint64_t>& node_id() const { return m_node; }

private:
    std::string m_file;
    std::optional<uint64_t> m_node;
};

}  // namespace uetsim::chakra
