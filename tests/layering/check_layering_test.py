"""The layering check finds each kind of violation it exists for, and passes a clean tree."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import check_layering  # noqa: E402

LAYERS = {"model": set(), "util": {"model"}, "store": {"model", "util"},
          "cupti": {"util"}, "cupti/host": {"util"}, "cli": {"store", "cupti/host"}}
TABLE = """| folder | job | may depend on |
|---|---|---|
| `src/model` | records | nothing |
| `src/util` | helpers | `model` |
| `src/store` | report | `model`, `util`, SQLite |
| `src/cupti` | collector | `util`, CUPTI |
| `src/cupti/host` | host API | `util`, CUPTI |
| `src/cli` | command | `store`, `cupti/host` |
"""


class CheckLayeringTest(unittest.TestCase):
    def make_tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            full = os.path.join(root, "src", path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        with open(os.path.join(root, "ARCHITECTURE.md"), "w") as f:
            f.write(TABLE)
        return root

    def problems(self, files, layers=LAYERS):
        root = self.make_tree(files)
        table = check_layering.read_table(os.path.join(root, "ARCHITECTURE.md"))
        return check_layering.check(layers, table, os.path.join(root, "src"))

    def test_a_clean_tree_passes(self):
        self.assertEqual([], self.problems({
            "cli/main.cpp": '#include "store/reader.h"\n#include "model/records.h"\n'
                            '#include "cupti/host/metric_host.h"\n#include <vector>\n',
            "store/reader.cpp": '#include <sqlite3.h>\n#include "util/status.h"\n',
            "cupti/activity.cpp": '#include <cupti.h>\n',
        }))

    def test_an_include_of_a_folder_not_depended_on_fails(self):
        problems = self.problems({"store/reader.cpp": '#include "cli/commands.h"\n'})
        self.assertEqual(1, len(problems))
        self.assertIn('src/store/reader.cpp: includes "cli/commands.h" (src/cli)', problems[0])

    def test_a_sibling_subfolder_is_not_its_parent(self):
        problems = self.problems({"cli/x.cpp": '#include "cupti/activity.h"\n'})
        self.assertEqual(1, len(problems))
        self.assertIn("(src/cupti)", problems[0])

    def test_vendor_headers_stay_behind_their_boundary(self):
        problems = self.problems({"cli/x.cpp": "#include <cupti_activity.h>\n#include <sqlite3.h>\n"})
        self.assertEqual(2, len(problems))
        self.assertIn("only src/cupti may", problems[0])
        self.assertIn("only src/store may", problems[1])

    def test_a_dlopen_of_an_nvidia_library_stays_behind_the_boundary(self):
        probe = 'void* driver = dlopen("libcuda.so.1", RTLD_NOW);\n'
        problems = self.problems({"cli/probe.cpp": probe,
                                  "cli/nvml.cpp": 'dlopen("libnvidia-ml.so.1", RTLD_LAZY);\n',
                                  "cupti/host/probe.cpp": probe})
        self.assertEqual(2, len(problems))
        self.assertIn("src/cli/nvml.cpp: dlopens libnvidia-ml.so.1, which only src/cupti may", problems[0])
        self.assertIn("src/cli/probe.cpp: dlopens libcuda.so.1, which only src/cupti may", problems[1])

    def test_other_libraries_and_comments_may_name_dlopen(self):
        problems = self.problems({
            "cli/x.cpp": 'void* gcc = dlopen("libgcc_s.so.1", RTLD_NOW);\n'
                         '// the driver calls dlopen("libcuda.so.1") in cuInit\n',
            "util/y.cpp": 'const char* kDriver = "libcuda.so.1";  // named, never loaded here\n'})
        self.assertEqual([], problems)

    def test_the_table_and_the_build_must_agree(self):
        layers = dict(LAYERS)
        layers["store"] = {"model"}
        layers["viewer"] = {"store"}
        problems = self.problems({}, layers)
        self.assertEqual(2, len(problems))
        self.assertIn("src/store may depend on ['model', 'util'], the build says ['model']", problems[0])
        self.assertIn("no row for src/viewer", problems[1])

    def test_a_file_in_no_layer_is_reported(self):
        problems = self.problems({"stray/x.cpp": "int x;\n"})
        self.assertEqual(1, len(problems))
        self.assertIn("src/stray/x.cpp: in no layer", problems[0])


if __name__ == "__main__":
    unittest.main()
