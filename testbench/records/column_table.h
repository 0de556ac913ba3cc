// A record's columns as one table: each column's name, its doc line (meaning, unit) and how its
// cell is formatted from the record's row struct. The CSV header, every row and the column list
// of docs/records.md all come from the same table, so a header cannot drift from its values.
// Cells use fmt's "{}" (shortest round-trip form for doubles), so identical runs give
// byte-identical files.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "testbench/records/csv_writer.h"

namespace uetsim {

template <typename Row>
struct column
{
    const char* name;
    const char* doc;  // markdown: what the value means, its unit
    void (*put)(std::string& out, const Row& r);
};

template <typename Row>
using column_table = std::vector<column<Row>>;

// One cell, formatted as every record formats it.
template <typename T>
void cell(std::string& out, const T& v)
{
    fmt::format_to(std::back_inserter(out), "{}", v);
}

// A column's cell from an expression of the row `r` (a captureless lambda, so a column costs
// one indirect call per row, no allocation).
#define UETSIM_CELL(Row, expr) [](std::string& out, const Row& r) { ::uetsim::cell(out, (expr)); }

// Name and doc line of a column, without its row type: what the registry and the docs see.
struct column_doc
{
    std::string name;
    std::string doc;
};

template <typename Row>
std::vector<column_doc> column_docs(const column_table<Row>& t)
{
    std::vector<column_doc> d;
    for (const auto& c : t) d.push_back({c.name, c.doc});
    return d;
}

template <typename Row>
std::vector<std::string> column_names(const column_table<Row>& t)
{
    std::vector<std::string> n;
    for (const auto& c : t) n.push_back(c.name);
    return n;
}

// A CSV record whose header and rows come from one column table.
template <typename Row>
class record_csv
{
public:
    record_csv(const std::string& path, const column_table<Row>& columns)
        : m_columns(columns), m_csv(path, column_names(columns))
    {
    }

    void write(const Row& r)
    {
        m_line.clear();
        for (size_t i = 0; i < m_columns.size(); ++i) {
            if (i) m_line += ',';
            m_columns[i].put(m_line, r);
        }
        m_csv.raw_row(m_line);
    }

    const std::string& path() const { return m_csv.path(); }
    size_t rows() const { return m_csv.rows(); }
    void close() { m_csv.close(); }

private:
    const column_table<Row>& m_columns;
    csv_writer m_csv;
    std::string m_line;
};

}  // namespace uetsim
