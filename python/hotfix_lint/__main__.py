"""`python -m hotfix_lint ARGS` runs the `hotfix` binary that this wheel installed.

The binary is the one of this installation (found through the distribution's record of its
files, then the environment's scripts folders), never another `hotfix` on PATH, so that the
version is the wheel's. Its exit code is passed on.
"""

import importlib.metadata
import os
import sys
import sysconfig

DISTRIBUTION = "hotfix-lint"


def find_hotfix_bin() -> str:
    """The path of the `hotfix` binary installed with this package."""
    exe = "hotfix" + (sysconfig.get_config_var("EXE") or "")
    candidates = []
    # The installer's RECORD names the binary relative to site-packages, whatever the install
    # scheme was (a virtual environment, --user, --prefix, --target).
    try:
        files = importlib.metadata.distribution(DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    candidates += [str(f.locate()) for f in files if f.name == exe]
    # `pip install --target DIR` records a wrong path (that of its temporary prefix) and puts
    # the binary into DIR/bin, beside this package's folder.
    beside = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates += [os.path.join(beside, folder, exe) for folder in ("bin", "Scripts")]
    candidates.append(os.path.join(sysconfig.get_path("scripts"), exe))
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    elif sys.platform == "darwin" and getattr(sys, "_framework", None):
        user_scheme = "osx_framework_user"
    else:
        user_scheme = "posix_user"
    candidates.append(os.path.join(sysconfig.get_path("scripts", scheme=user_scheme), exe))
    for candidate in candidates:
        if os.path.isfile(candidate):
            return os.path.realpath(candidate)
    raise FileNotFoundError(
        "the hotfix binary of the %s distribution is not installed; looked at: %s"
        % (DISTRIBUTION, ", ".join(candidates))
    )


def main() -> None:
    try:
        hotfix = find_hotfix_bin()
    except FileNotFoundError as error:
        sys.stderr.write("python -m hotfix_lint: %s\n" % error)
        sys.exit(2)  # hotfix's own exit code for "hotfix failed"
    args = [hotfix, *sys.argv[1:]]
    if sys.platform == "win32":
        import subprocess

        with subprocess.Popen(args) as process:
            while True:
                try:
                    sys.exit(process.wait())
                except KeyboardInterrupt:
                    # Ctrl-C reached hotfix too: it finishes the files being written and
                    # exits with its own code, which is the one to pass on.
                    continue
    else:
        os.execv(hotfix, args)


if __name__ == "__main__":
    main()
