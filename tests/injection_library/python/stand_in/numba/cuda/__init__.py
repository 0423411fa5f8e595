"""Stands in for numba.cuda (Numba's built-in CUDA target)."""
from recording_jit import recording_jit

compiled = []
jit = recording_jit(compiled)
