#!/usr/bin/env python3
"""Packs one target's hotfix binary into the archive that a release carries.

    release-archive.py --target TRIPLE --version X.Y.Z --binary PATH --out DIR

writes DIR/hotfix-TRIPLE-vX.Y.Z.tar.gz (.zip for a Windows target), holding one folder of the
same name with the binary (`hotfix`, `hotfix.exe`), LICENSE and README.md, and beside it
ARCHIVE.sha256 in `sha256sum` format (`sha256sum -c` checks it). These names are the ones
[package.metadata.binstall] in Cargo.toml gives `cargo binstall`. The release workflow runs this
on every target; scripts/wheel-check.sh runs it for this machine and unpacks the result.
Standard library only, so that it runs on every runner.
"""

import argparse
import hashlib
import os
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True, help="the Rust target triple")
    parser.add_argument("--version", required=True, help="the crate's version, without a v")
    parser.add_argument("--binary", required=True, help="the hotfix binary built for the target")
    parser.add_argument("--out", required=True, help="the folder to write the archive into")
    args = parser.parse_args()

    if args.version.startswith("v"):
        parser.error("--version takes the version without its v: %s" % args.version)
    if not os.path.isfile(args.binary):
        parser.error("--binary %s: no such file" % args.binary)
    windows = "windows" in args.target
    name = "hotfix-%s-v%s" % (args.target, args.version)
    members = [
        (args.binary, "hotfix.exe" if windows else "hotfix", 0o755),
        (os.path.join(ROOT, "LICENSE"), "LICENSE", 0o644),
        (os.path.join(ROOT, "README.md"), "README.md", 0o644),
    ]
    os.makedirs(args.out, exist_ok=True)
    archive = os.path.join(args.out, name + (".zip" if windows else ".tar.gz"))
    if windows:
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
            for path, member, _ in members:
                zipped.write(path, "%s/%s" % (name, member))
    else:
        with tarfile.open(archive, "w:gz") as tarred:
            folder = tarfile.TarInfo(name)
            folder.type = tarfile.DIRTYPE
            folder.mode = 0o755
            folder.mtime = int(os.path.getmtime(args.binary))
            tarred.addfile(folder)
            for path, member, mode in members:
                info = tarred.gettarinfo(path, "%s/%s" % (name, member))
                info.mode = mode
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                with open(path, "rb") as content:
                    tarred.addfile(info, content)

    digest = hashlib.sha256()
    with open(archive, "rb") as content:
        for block in iter(lambda: content.read(1 << 20), b""):
            digest.update(block)
    with open(archive + ".sha256", "w", encoding="ascii", newline="\n") as checksum:
        checksum.write("%s  %s\n" % (digest.hexdigest(), os.path.basename(archive)))
    print(archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
