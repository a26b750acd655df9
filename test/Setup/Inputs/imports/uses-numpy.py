import json
import numpy as np
from plan_helpers import load
import pkg.sub
