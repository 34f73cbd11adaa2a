#!/usr/bin/env python3
"""check_sass.py must fail when SASS breaks a rule: exercised on hand-written disassembly."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sass  # noqa: E402

SASS = """
	code for sm_90
		Function : wide
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0070*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;
        /*0090*/              @!P0 STG.E.128 desc[UR4][R6.64], R4 ;
		Function : narrow
        /*0070*/                   LDG.E R4, desc[UR4][R2.64] ;
        /*0080*/                   STL [R1], R4 ;
"""

PTXAS = """ptxas info    : Function properties for wide
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Function properties for narrow
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
"""


class CheckSass(unittest.TestCase):
    def test_parses_opcodes_with_predicates(self):
        functions = check_sass.parse_sass(SASS)
        self.assertEqual(functions["wide"], ["LDC", "LDG.E.128.CONSTANT", "STG.E.128"])
        self.assertEqual(functions["narrow"], ["LDG.E", "STL"])

    def test_has_and_lacks(self):
        functions = check_sass.parse_sass(SASS)
        _, failures = check_sass.check_rules([("^wide$", "has", r"LDG\.E\.128")], {"wide": functions["wide"]})
        self.assertEqual(failures, 0)
        _, failures = check_sass.check_rules([("^wide$", "lacks", r"STG\.E\.128")], {"wide": functions["wide"]})
        self.assertEqual(failures, 1)

    def test_has_at_most(self):
        wide = {"wide": check_sass.parse_sass(SASS)["wide"]}
        _, failures = check_sass.check_rules([("^wide$", "has at most 1", "LDG")], wide)
        self.assertEqual(failures, 0)
        _, failures = check_sass.check_rules([("^wide$", "has at most 1", "(LDG|STG)")], wide)
        self.assertEqual(failures, 1)
        rules = check_sass.parse_rules("// sass: kernel<4> has at most 4 BRA\\.DIV\n")
        self.assertEqual(rules, [("kernel<4>", "has at most 4", "BRA\\.DIV")])

    def test_local_memory_always_fails(self):
        _, failures = check_sass.check_rules([("^wide$", "has", "LDG")], check_sass.parse_sass(SASS))
        self.assertEqual(failures, 1)  # narrow's STL

    def test_rule_matching_nothing_fails(self):
        _, failures = check_sass.check_rules([("^absent$", "has", "LDG")], {"wide": ["LDG.E"]})
        self.assertEqual(failures, 1)

    def test_spills_fail(self):
        failures = check_sass.check_resources(check_sass.parse_ptxas(PTXAS))
        self.assertEqual(len(failures), 1)
        self.assertIn("narrow", failures[0])

    def test_smem_rules(self):
        log = ("ptxas info    : Compiling entry function 'padded' for 'sm_90'\n"
               "ptxas info    : Used 30 registers, used 1 barriers, 4224 bytes smem, 400 bytes cmem[0]\n"
               "ptxas info    : Compiling entry function 'plain' for 'sm_90'\n"
               "ptxas info    : Used 8 registers, used 0 barriers, 380 bytes cmem[0]\n")
        smem = check_sass.parse_smem(log)
        self.assertEqual(smem, {"padded": 4224, "plain": 0})
        self.assertEqual(check_sass.check_smem([("^padded$", 4224), ("^plain$", 0)], smem)[1], 0)
        self.assertEqual(check_sass.check_smem([("^padded$", 4096)], smem)[1], 1)
        self.assertEqual(check_sass.check_smem([("^absent$", 0)], smem)[1], 1)
        self.assertEqual(check_sass.parse_ptxas_rules("// ptxas: k<32, 1> smem 4224\n"), [("k<32, 1>", 4224)])

    def test_rule_syntax(self):
        rules = check_sass.parse_rules("// sass: kernel<4, 4> has LDG\\.E\\.128\nint x;\n")
        self.assertEqual(rules, [("kernel<4, 4>", "has", "LDG\\.E\\.128")])
        with self.assertRaises(ValueError):
            check_sass.parse_rules("// sass: kernel contains LDG\n")


if __name__ == "__main__":
    unittest.main()
