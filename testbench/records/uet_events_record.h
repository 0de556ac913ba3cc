// uet-events: one row per PDC or work-request event (created, send complete, complete, receive
// complete, closed) of every UET NIC whose UetNic.EnableEventLogging is on, one file for all of
// them. The record's opening hands each NIC the sink (uet_nic::set_event_sink).
#pragma once

#include <string>
#include <vector>

#include "hw/nic/uet/uet_event_sink.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

// One uet-events row: the NIC's event, the NIC's name and the row's time_utc.
struct uet_event_cells
{
    const uet_event* e = nullptr;
    const std::string* component_name = nullptr;
    const std::string* time_utc = nullptr;
};

const column_table<uet_event_cells>& uet_event_columns();
const record_def& uet_events_record_def();

class uet_events_record : public uet_event_sink
{
public:
    uet_events_record(const std::string& path, const std::vector<std::string>& nic_names,
                      const std::string& epoch_utc);
    void event(const uet_event& e) override;
    void close() { m_csv.close(); }

private:
    record_csv<uet_event_cells> m_csv;
    std::vector<std::string> m_names;  // by FEP id (node id)
    std::string m_epoch;
    uint64_t m_utc_second = ~0ull;  // the simulated second m_utc is of
    std::string m_utc;
};

}  // namespace uetsim
