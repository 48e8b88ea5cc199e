#!/usr/bin/env python3
"""The shared library exports exactly the functions murmur.h marks MUR_API.

usage: check_symbols.py NM LIBMURMUR.so MURMUR_H
Lists the defined dynamic symbols (nm -D --defined-only) and compares them with the declarations
"MUR_API <type> name(" of the header: a symbol the header does not declare is a leaked internal, a
declared function the library lacks is a broken API. Exit 1 with both lists on a mismatch.
"""
import re
import subprocess
import sys


def main():
    nm, lib, header = sys.argv[1:4]
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            exported.add(parts[2].split("@")[0])
    text = open(header, encoding="utf-8").read()
    declared = set(re.findall(r"^MUR_API\b[^;(]*?\b(mur_\w+)\s*\(", text, flags=re.M))
    if len(declared) < 40:
        print(f"only {len(declared)} MUR_API declarations found in {header}: the pattern is broken")
        return 1
    leaked = sorted(exported - declared)
    missing = sorted(declared - exported)
    if leaked or missing:
        print("exported but not MUR_API in murmur.h:", " ".join(leaked) or "none")
        print("MUR_API in murmur.h but not exported:", " ".join(missing) or "none")
        return 1
    print(f"{len(exported)} exported symbols, all MUR_API functions of murmur.h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
