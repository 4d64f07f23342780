#!/usr/bin/env bash
# Renders Cinn's icons from their SVG sources (this folder) into the PNGs the web app serves
# (Sources/CinnServer/App/Icons), with headless Chromium, at exact sizes:
#
#     design/icons/render.sh [CHROMIUM]        # default: chromium
#
# icon.svg (a rounded square) gives icon-192.png and icon-512.png ("any"); icon-maskable.svg (full bleed, the mark
# inside the safe zone) gives icon-maskable-512.png and apple-touch-icon.png (180 px, which iOS rounds itself).
# The PNGs are committed: building Cinn needs no renderer. Run this after changing a source, then check the sizes
# with `swift test --filter InstallableTests`.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/../../Sources/CinnServer/App/Icons"
CHROMIUM="${1:-chromium}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
render() {
    local source=$1 size=$2 name=$3
    # A page of exactly the icon's size holding the SVG scaled to fill it.
    printf '<!doctype html><html><head><style>html,body{margin:0;background:transparent}img{display:block;width:%spx;height:%spx}</style></head><body><img src="file://%s"></body></html>' \
        "$size" "$size" "$HERE/$source" >"$WORK/page.html"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
        --window-size="$size,$size" --screenshot="$OUT/$name" "file://$WORK/page.html" >/dev/null 2>&1
    echo "$name ($size px)"
}
render icon.svg 192 icon-192.png
render icon.svg 512 icon-512.png
render icon-maskable.svg 512 icon-maskable-512.png
render icon-maskable.svg 180 apple-touch-icon.png
