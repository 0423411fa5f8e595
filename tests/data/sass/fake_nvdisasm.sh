#!/bin/sh
# Stands in for NVIDIA's nvdisasm on machines without the CUDA toolkit: for `-c FILE` whose
# bytes are one of the recorded cubins, prints the listing nvdisasm made of it on the H100,
# so that gpuscope's own running and parsing of nvdisasm is what the tests exercise.
here=$(dirname "$0")
if [ "$#" -ne 2 ] || [ "$1" != "-c" ]; then
  echo "fake nvdisasm: expected -c FILE, got: $*" >&2
  exit 2
fi
for name in k probe; do
  if cmp -s "$2" "$here/$name.cubin"; then
    exec cat "$here/$name.nvdisasm.txt"
  fi
done
echo "nvdisasm fatal   : Input file '$2' is not a known cubin" >&2
exit 1
