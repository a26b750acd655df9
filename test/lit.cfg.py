# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CS349"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cs349_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%cs349_src", config.cs349_src_root))
config.substitutions.append(("%cs349_obj", config.cs349_obj_root))
# The allocation problems the planner is tested on (bench/data/README.md).
config.substitutions.append(
    ("%bench_data", os.path.join(config.cs349_src_root, "bench", "data")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Tools are found on PATH: the project's own first, then LLVM's FileCheck,
# not and count.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.cs349_tools_dir, append_path=True)

if config.sanitized:
    config.available_features.add("sanitized")
    # Leak checks are off: MLIR's global registries live until exit by design.
    # User poisoning is off: LLVM's BumpPtrAllocator poisons its slabs in the
    # copies of its inline code compiled into our instrumented objects, but the
    # uninstrumented Debian MLIR libraries never unpoison what they allocate,
    # so every MLIRContext would report a false use-after-poison.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

# Debian's Chromium (scripts/setup.sh installs it) loads the interactive plan
# page in test/Browser; without it those tests are reported unsupported.
if shutil.which("chromium"):
    config.available_features.add("chromium")

# IR that other projects' front ends wrote for real models, beside the
# repository for developers and CI only; without it the tests over it
# (test/Import/real-ir.test) are reported unsupported.
real_ir = os.path.join(os.path.dirname(config.cs349_src_root), "shared", "real-ir")
if os.path.isdir(real_ir):
    config.available_features.add("real-ir")
    config.substitutions.append(("%real_ir", real_ir))

tools = ["cs349-opt", "cs349-gen", "cs349-plan", "cs349-run", "cs349-difftest", "cs349-lsp-server", "cs349-steps"]
llvm_config.add_tool_substitutions(
    [ToolSubst(t, unresolved="ignore") for t in tools], [config.cs349_tools_dir])
