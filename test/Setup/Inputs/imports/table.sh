#!/usr/bin/env bash
python3 - "$1" <<'PY'
import sys
import yaml
PY
