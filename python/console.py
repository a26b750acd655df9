"""Console helpers of the lecture scripts: byte counts, headers, tables,
observations. Plain text, decimal units (1 MB = 10^6 B)."""
import textwrap
import unicodedata

UNITS = ["KB", "MB", "GB", "TB", "PB"]


def fmt_bytes(n):
    """541196288 -> '541 MB', 2315550720 -> '2.3 GB', 999 -> '999 B'."""
    n = int(n)
    if n < 1000:
        return f"{n} B"
    value, unit = float(n), -1
    while value >= 1000 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    if value >= 999.5 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    return (f"{value:.1f}" if value < 9.95 else f"{value:.0f}") + " " + UNITS[unit]


def _width(text):
    """Columns a string takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(text))


def _pad(text, width, right):
    text = str(text)
    space = " " * (width - _width(text))
    return space + text if right else text + space


def print_header(title):
    print()
    print("=" * max(_width(title), 40))
    print(title)
    print("=" * max(_width(title), 40))


def print_table(headers, rows):
    """Columns padded to their widest cell; numbers right-aligned."""
    rows = [[str(c) for c in row] for row in rows]
    widths = [max([_width(h)] + [_width(r[i]) for r in rows if i < len(r)]) for i, h in enumerate(headers)]

    def numeric(cell):
        return cell[:1].isdigit() or cell[:1] == "%"

    print("  ".join(_pad(h, w, False) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(_pad(c, w, numeric(c)) for c, w in zip(row, widths)))


def print_observations(lines):
    print()
    for number, line in enumerate(lines, start=1):
        print(textwrap.fill(line, width=100, initial_indent=f"{number}. ", subsequent_indent="   "))
