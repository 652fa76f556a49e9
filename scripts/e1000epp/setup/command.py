# SPDX-License-Identifier: GPL-2.0-or-later
"""`setup`: the seven idempotent, incremental steps (one more each for
the sanitized emulator, with --sanitized, QEMU's fuzzer, with
--fuzzing, and the sanitizing guest kernel, with --debug-kernel)."""

import os
import time
import traceback

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.common.progress import fmt_secs, Reporter
from e1000epp.setup import apt, native_build, overlay, qemu_build, qemu_source


def _guest_step(reporter):
    from e1000epp.image import guest_image
    try:
        result = guest_image.build_guest(paths.REPO, paths.GUEST_DIR,
                                         reporter.line)
    except StepError:
        raise
    except Exception as e:
        if os.environ.get("E1000EPP_DEBUG"):
            traceback.print_exc()
        why = str(e) if type(e).__name__ == "GuestBuildError" else \
            "%s: %s" % (type(e).__name__, e)
        raise StepError("building the guest image failed", why,
                        "see the messages above; run setup with --debug for "
                        "the traceback, or --skip-guest to go on without")
    where = os.path.relpath(paths.GUEST_DIR, paths.REPO)
    kernel = result.get("kernel")
    release = kernel.get("release") if isinstance(kernel, dict) else None
    return "%s (kernel %s)" % (where, release) if release else where


def run_setup(jobs=None, skip_guest=False, verbose=False, sanitized=False,
              fuzzing=False, debug_kernel=False):
    rep = Reporter("setup", 7 + sanitized + fuzzing + debug_kernel, verbose)
    start = time.monotonic()
    steps = [
        ("packages", lambda: apt.ensure_packages(rep)),
        ("QEMU source", lambda: qemu_source.ensure_source(rep)),
        ("overlay", lambda: overlay.apply_overlay(rep)),
        ("configuring QEMU", lambda: qemu_build.configure(
            rep, paths.qemu_src())),
        ("building QEMU", lambda: _build_and_firmware(rep, jobs)),
        ("native build", lambda: native_build.build(rep, jobs)),
        ("guest image", (lambda: "skipped (--skip-guest)") if skip_guest
         else (lambda: _guest_step(rep))),
    ]
    if sanitized:
        steps.append(("QEMU with AddressSanitizer and UBSan",
                      lambda: qemu_build.build_sanitized(rep, jobs)))
    if fuzzing:
        steps.append(("QEMU's fuzzer (clang, libFuzzer, ASan + UBSan)",
                      lambda: qemu_build.build_fuzzer(rep, jobs)))
    if debug_kernel:
        from e1000epp.setup import debug_kernel as dk
        steps.append(("the sanitizing guest kernel (KASAN, kmemleak, "
                      "lockdep, DEBUG_NET)", lambda: dk.build(rep, jobs)))
    for title, fn in steps:
        rep.step("%s ..." % title)
        t0 = time.monotonic()
        status = fn()
        rep.line("%s: %s (%s)" % (title, status,
                                  fmt_secs(time.monotonic() - t0)))
    rep.index = rep.total
    rep.line("done in %s" % fmt_secs(time.monotonic() - start))


def _build_and_firmware(rep, jobs):
    status = qemu_build.build(rep, jobs)
    n = qemu_build.link_firmware(rep)
    return "%s; %d firmware files linked" % (status, n)
