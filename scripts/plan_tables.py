"""Helpers shared by the demo scripts: read --plan-memory JSON reports and
print aligned tables in the units cs349-opt --memory-report uses."""
import json

UNITS = ["kB", "MB", "GB", "TB", "PB", "EB"]


def human(n):
    """Decimal units, three significant digits (as cs349-opt --memory-report)."""
    if n < 1000:
        return f"{n} B"
    value, unit = float(n), -1
    while value >= 1000 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    if value >= 999.5 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    return (f"{value:.0f}" if value >= 99.95 else f"{value:.1f}") + " " + UNITS[unit]


def load_plan(path, function):
    """The report object of one function in a --plan-memory=report=PATH file."""
    with open(path) as f:
        return next(fn for fn in json.load(f) if fn["name"] == function)


def print_table(rows, indent="   "):
    """Left-aligned columns, the first row being the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
