#!/usr/bin/env bash
# The folder edges of src/ (DESIGN.md, "Shape of the program"): which folder may include which.
# Run by scripts/test.sh as the quick "layers" stage, or by hand: scripts/check-layers.sh.
#
# DESIGN: the floors are only true while something checks them. Every `#include "x/y.h"` of a
# file in src/<folder>/ must name a folder (or one header) listed for <folder> in ALLOWED
# below; an include of the same folder and src/*.h (options.h, server.h) from main.c/server.c
# are always allowed. An edge that is wrong today but not yet removed is written in
# EXCEPTIONS with the step that removes it; the check fails both on a new edge that is in
# neither list and on an exception that no longer occurs (so the list shrinks, never rots).
# Last line: "layers: N passed, M failed" (N files checked clean, M offending edges).
# scripts/check-layers.sh --self-test checks the checker on a made-up tree (a forbidden edge,
# an allowed one, a stale exception) and prints the same line.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# folder: the folders (or folder/header.h) it may include. Lower floors first; nothing
# includes upward. store/store.h is the transaction type every caller of the domain holds;
# the domain may write the JSON text it stores or signs with the writer (json/jsonw.h), but
# its result types live in model/, never in a serializer's header.
declare -A ALLOWED=(
  [util]=""
  [model]="util"
  [format]="model util"
  [json]="model util"
  [store]="model util"
  [git]="format model util"
  [translate]="format model util"
  [runtime]="model util"
  [domain]="store model format util git translate runtime json/jsonw.h"
  [jobs]="domain store model format util"
  [site]="domain json model format util http store/store.h"
  [api]="domain json model format util http store/store.h"
  [app]="domain json model format util http store/store.h site"
  [http]="util model json store/store.h domain/domain.h domain/tokens.h api/routes.h app/app.h site/site.h"
)

# file -> include: today's edges against the table, each with what removes it.
EXCEPTIONS='
src/format/markdown.h -> json/jsonw.h             # md_to_document writes JSON: the writer to util/ (§2)
src/format/openapi_doc.h -> json/jsonw.h          # writes markdown into a jw: util/buf (§2)
src/model/adaptive_content.c -> json/jsonw.h      # writes JSON: the writer to util/ (§2)
src/model/revision.h -> json/jsonw.h              # the stored manifest is JSON: idem
src/json/serialize_comments.c -> format/markdown.h     # serializers take plain data (issue 33 §2)
src/json/serialize_content.c -> format/markdown.h      # idem
src/json/serialize_integrations.h -> domain/integrations.h  # result types to model/ (§2)
src/domain/git_sync.c -> json/serialize_git.h       # the link row keeps the GitSyncState JSON (an API shape)
src/domain/integration_events.c -> json/serialize_integrations.h  # event payloads (being reworked elsewhere)
src/domain/sites.c -> json/serialize_sites.h      # customization checks are rules: to model/
src/api/meta.c -> site/site.h                     # site URL helpers belong below the site
src/site/serve.c -> store/search.h                # search through the domain
src/app/pages_translations.c -> translate/engine.h  # engine list through the domain
src/model/adaptive_content.c -> format/markdown.h  # code ranges from the cmark-gfm parse (issue 30): adaptive content moves to format/
src/http/metrics.c -> runtime/runtime.h          # docsd_runtime_* counters: the server passes a stats callback instead
'
EXCEPTIONS=$(printf '%s\n' "$EXCEPTIONS" | sed 's/#.*//; s/[[:space:]]*$//; /^$/d')

if [ "${1:-}" = --self-test ]; then
  t=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX")
  trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/scripts" "$t/src/util" "$t/src/domain" "$t/src/json"
  cp "${BASH_SOURCE[0]}" "$t/scripts/check-layers.sh"
  # The copy's exception list: one edge that occurs, one that does not (stale).
  sed -i "/^EXCEPTIONS='\$/,/^'\$/c\\
EXCEPTIONS='\\
src/json/w.c -> domain/domain.h\\
src/json/gone.c -> domain/domain.h\\
'" "$t/scripts/check-layers.sh"
  printf '#include "util/buf.h"\n#include "json/jsonw.h"\n' > "$t/src/domain/ok.c"
  printf '#include "domain/domain.h"\n' > "$t/src/util/bad.h"
  printf '#include "json/serialize.h"\n' > "$t/src/domain/bad.c"
  printf '#include "domain/domain.h"\n' > "$t/src/json/w.c"
  out=$("$t/scripts/check-layers.sh" 2>&1) && { echo "layers: self-test: the check passed a bad tree" >&2; echo "layers: 0 passed, 1 failed"; exit 1; }
  ok=0; bad=0
  for want in "src/util/bad.h -> domain/domain.h: util/ may include only" \
              "src/domain/bad.c -> json/serialize.h: domain/ may include only" \
              "stale exception (remove it from scripts/check-layers.sh): src/json/gone.c -> domain/domain.h" \
              "layers: 2 passed, 3 failed"; do
    if printf '%s\n' "$out" | grep -qF -- "$want"; then ok=$((ok + 1)); else bad=$((bad + 1)); echo "layers: self-test: missing: $want" >&2; fi
  done
  if printf '%s\n' "$out" | grep -qF "ok.c"; then bad=$((bad + 1)); echo "layers: self-test: an allowed edge was refused" >&2; fi
  echo "layers: $ok passed, $bad failed"
  [ "$bad" -eq 0 ]
  exit
fi

passed=0
failed=0
seen=""
for f in src/*/*.[ch]; do
  dir=${f#src/}; dir=${dir%%/*}
  if [ -z "${ALLOWED[$dir]+set}" ]; then
    echo "layers: $f: folder $dir/ has no row in ALLOWED" >&2
    failed=$((failed + 1)); continue
  fi
  bad=0
  while IFS= read -r inc; do
    [ -n "$inc" ] || continue
    case $inc in */*) ;; *) continue ;; esac   # same folder
    to=${inc%%/*}
    [ "$to" = "$dir" ] && continue
    ok=0
    for a in ${ALLOWED[$dir]}; do
      if [ "$a" = "$to" ] || [ "$a" = "$inc" ]; then ok=1; break; fi
    done
    [ "$ok" = 1 ] && continue
    edge="$f -> $inc"
    if printf '%s\n' "$EXCEPTIONS" | grep -qxF -- "$edge"; then
      seen+="$edge"$'\n'; continue
    fi
    echo "layers: $edge: $dir/ may include only: ${ALLOWED[$dir]:-(nothing of ours)}" >&2
    bad=$((bad + 1))
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
  if [ "$bad" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + bad)); fi
done

# An exception that no longer occurs (or is allowed now) must leave the list.
while IFS= read -r edge; do
  [ -n "$edge" ] || continue
  if ! printf '%s' "$seen" | grep -qxF -- "$edge"; then
    echo "layers: stale exception (remove it from scripts/check-layers.sh): $edge" >&2
    failed=$((failed + 1))
  fi
done <<< "$EXCEPTIONS"

echo "layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
