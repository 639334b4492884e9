#!/usr/bin/env bash
# Writes the Home Assistant add-on repository, ready to copy to Home Assistant's /addons folder or
# to push as an add-on repository of your own: homeassistant-addon/ (repository.yaml, mowability/
# with config.yaml, build.yaml, DOCS.md, translations, icon and logo) plus, inside mowability/, the
# build context of the project's Dockerfile (the sources; Home Assistant builds the image on the
# device from that folder, with build.yaml's base image and IMAGE_KIND=addon).
# Usage: scripts/addon-folder.sh [OUT]   (default: dist-addon; OUT/mowability is the add-on)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist-addon}"
rm -rf "$out"
mkdir -p "$out"
cp -R homeassistant-addon/. "$out/"
addon="$out/mowability"
# Exactly what the Dockerfile copies from its context (test/compat/container.test.ts checks the list).
cp Dockerfile .dockerignore package.json package-lock.json tsconfig.json tsconfig.build.json "$addon/"
mkdir -p "$addon/scripts"
cp scripts/prepare.mjs "$addon/scripts/"
cp -R src config public "$addon/"
echo "addon-folder: $addon (copy it to /addons/mowability on Home Assistant; DOCS.md, \"Install\")"
