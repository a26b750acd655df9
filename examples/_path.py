"""Lets the examples run from a clone without installing anything: the
package is ../python."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
