#!/usr/bin/env python3
"""Size and start-up time of Cinn's container image, for one or more cinn binaries side by side.

For each binary (linked with --static-swift-stdlib): builds the image from the Containerfile on --base, then, --runs
times in turn for every image, starts a container on a new volume and times `podman run` until the health check
passes (a new journal: migrations and the built-in foods), then stops it and times `podman start` until healthy again
(an existing journal). Prints a table of medians and writes --summary as JSON.

    python3 Benchmarks/container/run.py --base localhost/cinn-base:bookworm --runs 5 \\
        debug=.build-static/debug/cinn release=.build-static/release/cinn
"""
import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def podman(*arguments: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["podman", *arguments], capture_output=True, text=True, check=check, timeout=1200)


def healthy_after(name: str, start: float) -> float:
    while time.monotonic() - start < 180:
        if podman("healthcheck", "run", name, check=False).returncode == 0:
            return time.monotonic() - start
        time.sleep(0.05)
    raise SystemExit(f"{name} not healthy within 180 s")


def build(label: str, binary: Path, base: str) -> tuple[str, int]:
    tag = f"localhost/cinn:bench-{label}-{uuid.uuid4().hex[:6]}"
    with tempfile.TemporaryDirectory() as context:
        (Path(context) / "dist").mkdir()
        shutil.copy(ROOT / "Containerfile", context)
        shutil.copy(binary, Path(context) / "dist" / "cinn")
        podman("build", "--format", "docker", "--network", "host", "--build-arg", f"BASE={base}", "-t", tag,
               "-f", str(Path(context) / "Containerfile"), context)
    return tag, int(podman("image", "inspect", "--format", "{{.Size}}", tag).stdout.strip())


def start_times(tag: str) -> tuple[float, float]:
    name = f"cinn-bench-{uuid.uuid4().hex[:8]}"
    volume = name + "-data"
    podman("volume", "create", volume)
    try:
        start = time.monotonic()
        podman("run", "-d", "--name", name, "--network", "none", "-v", f"{volume}:/data", tag)
        first = healthy_after(name, start)
        podman("stop", "--time", "30", name)
        start = time.monotonic()
        podman("start", name)
        again = healthy_after(name, start)
        return first, again
    finally:
        podman("rm", "--force", "--volumes", name, check=False)
        podman("volume", "rm", "--force", volume, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="LABEL=PATH of a cinn linked with --static-swift-stdlib")
    parser.add_argument("--base", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--summary")
    options = parser.parse_args()
    images = {}
    for item in options.binaries:
        label, path = item.split("=", 1)
        tag, size = build(label, Path(path), options.base)
        images[label] = {"tag": tag, "image_bytes": size, "binary_bytes": Path(path).stat().st_size, "new": [], "restart": []}
    try:
        for _ in range(options.runs):
            for image in images.values():
                first, again = start_times(image["tag"])
                image["new"].append(first)
                image["restart"].append(again)
    finally:
        for image in images.values():
            podman("rmi", "--force", image["tag"], check=False)
    print(f"{'image':<10} {'binary MB':>10} {'image MB':>9} {'new journal s':>14} {'restart s':>10}")
    for label, image in images.items():
        print(f"{label:<10} {image['binary_bytes'] / 1e6:>10.1f} {image['image_bytes'] / 1e6:>9.1f} "
              f"{statistics.median(image['new']):>14.2f} {statistics.median(image['restart']):>10.2f}")
    if options.summary:
        Path(options.summary).write_text(json.dumps(images, indent=2) + "\n")


if __name__ == "__main__":
    main()
