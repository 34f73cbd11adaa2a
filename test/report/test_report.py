#!/usr/bin/env python3
"""benchmark/report.py on a small hand-made JSON: rows, ratios to the best baseline, plots."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "benchmark", "report.py")


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp()
        run = subprocess.run([sys.executable, REPORT, os.path.join(HERE, "sample.json"), "--out", cls.out],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        with open(os.path.join(cls.out, "report.md"), encoding="utf-8") as f:
            cls.md = f.read()

    def row(self, variant, value):
        for line in self.md.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 6 and cells[0] == variant and cells[1] == value:
                return cells
        self.fail(f"no row {variant} {value} in\n{self.md}")

    def test_header_names_the_device(self):
        self.assertIn("Test GPU (sm_90), CUDA driver 13.0", self.md)
        self.assertIn("3352 GB/s", self.md)

    def test_ratio_is_to_the_best_baseline_at_the_same_size(self):
        cells = self.row("gpuprims::copy", "2^20")
        self.assertEqual(cells[3], "1200.0")
        self.assertEqual(cells[5], "1.200x cudaMemcpyAsync")
        self.assertEqual(self.row("gpuprims::copy", "2^28")[5], "1.200x cudaMemcpyAsync")
        self.assertEqual(self.row("cub::DeviceTransform (baseline)", "2^20")[5], "0.800x cudaMemcpyAsync")

    def test_family_without_baseline_has_no_ratio(self):
        self.assertEqual(self.row("gpuprims::copy", "11")[5], "")

    def test_several_arguments_form_one_key(self):
        self.assertEqual(self.row("shared_padded", "8192x8192x1")[5], "0.980x cublasSgeam")
        self.assertEqual(self.row("gpuprims::transpose", "8192x8192x1")[5], "1.043x cublasSgeam")
        self.assertIn("| variant | rowsxcolsxbatch |", self.md)

    def test_failed_runs_are_left_out(self):
        self.assertNotIn("broken", self.md)

    @unittest.skipUnless(importlib.util.find_spec("matplotlib"), "matplotlib not installed")
    def test_plots_per_family(self):
        for family in ("copy", "copy_offset", "transpose_4B"):
            self.assertGreater(os.path.getsize(os.path.join(self.out, f"{family}.png")), 1000)
            self.assertIn(f"![{family}]({family}.png)", self.md)


if __name__ == "__main__":
    unittest.main()
