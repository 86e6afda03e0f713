#!/usr/bin/env bash
# Refresh the README's screenshots (docs/screenshots/): run the web interface's browser journeys
# (tests/browser, Debian's chromium, SQLite) and copy the screenshots the README shows from
# tests/browser/artifacts/. Needs what `scripts/test.sh` installs (deps, node, tests/browser's
# npm packages) and a build (make). Usage: scripts/readme-screenshots.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# artifact name -> the README's name
shots=(
  app-home-desktop.png:home.png
  app-space-desktop.png:space.png
  app-write-editor.png:editor.png
  app-review-cr-desktop.png:review.png
  app-review-line-comment-desktop.png:line-comment.png
  app-site-structure-groups.png:site-structure.png
  app-site-published-phone.png:published-phone.png
  app-edit-link-editor.png:edit-link.png
  app-git-imported.png:git-sync.png
  app-admin-space-settings-desktop-dark.png:space-settings-dark.png
)

[ -x build/docsd ] || make -j"$(nproc 2>/dev/null || echo 2)"
[ -d tests/browser/node_modules ] || npm --prefix tests/browser ci --no-audit --no-fund
(cd tests/browser && DOCSD_BIN="$root/build/docsd" node --test app.test.mjs app-write.test.mjs \
  app-review.test.mjs app-site.test.mjs app-edit-link.test.mjs app-git.test.mjs app-admin.test.mjs)
mkdir -p docs/screenshots
for s in "${shots[@]}"; do
  cp "tests/browser/artifacts/${s%%:*}" "docs/screenshots/${s##*:}"
done
ls -l docs/screenshots
