#!/usr/bin/env bash
# End-to-end test of installing skycast: make install into a temporary prefix, the installed binary
# run from elsewhere without the Swift toolchain, its man page and bash completion, make uninstall,
# and the .deb. Prints "N passed, M failed".
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - install: $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - install: $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

prefix=$work/prefix
cd "$root"
if ! make --no-print-directory install PREFIX="$prefix" >"$work/install.log" 2>&1; then
    not_ok "make install failed: $(tail -5 "$work/install.log")"
    echo "install: $passed passed, $failed failed"
    exit 1
fi
ok "make install PREFIX=…"

# From another folder, with nothing of Swift on PATH or in the environment.
installed() { (cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$prefix/bin/skycast" "$@"); }
check "--version runs without the toolchain" '[ "$(installed --version)" = "skycast $(grep -o "current = \"[^\"]*" "$root/Sources/Models/SkycastVersion.swift" | cut -d\" -f2)" ]'
check "find Seoul finds the data in share/skycast" 'installed find Seoul | grep -q "Seoul, KR"'
check "show --demo Seoul" 'installed show --demo Seoul | grep -q "DEMO DATA" && installed show --demo Seoul | grep -q "Seoul, KR"'
check "ldd lists no Swift library" '! ldd "$prefix/bin/skycast" | grep -Eqi "swift|not found"'
check "the man page renders" 'MANWIDTH=80 man -l "$prefix/share/man/man1/skycast.1" 2>/dev/null | grep -q "EXIT STATUS" && MANWIDTH=80 man -l "$prefix/share/man/man1/skycast.1" 2>/dev/null | grep -q "bookmark / unbookmark"'

# bash completion: the flags, and the bookmarked cities for bookmarks remove.
installed bookmarks add Reykjavik >/dev/null
complete_line() {
    env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$work/home" LANG=C.UTF-8 bash --norc --noprofile -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _skycast; printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/skycast" "$@"
}
check "bash completes skycast --pro" '[ "$(complete_line skycast --pro)" = "--provider" ]'
check "bash completes bookmarks remove with the bookmarks" 'complete_line skycast bookmarks remove "" | grep -q "Reykjav"'
check "zsh and fish completions are there" '[ -s "$prefix/share/zsh/site-functions/_skycast" ] && [ -s "$prefix/share/fish/vendor_completions.d/skycast.fish" ]'

make --no-print-directory uninstall PREFIX="$prefix" >/dev/null 2>&1
check "make uninstall removes what install put there" '[ -z "$(find "$prefix" -type f)" ]'

# The Debian package: its contents, its dependencies, and a working skycast from them.
rm -f skycast_*.deb
if make --no-print-directory deb >"$work/deb.log" 2>&1 && deb=$(ls skycast_*_*.deb 2>/dev/null | head -1) && [ -n "$deb" ]; then
    ok "make deb builds $deb"
    contents=$(dpkg-deb -c "$deb")
    check "the .deb holds the binary, data, man page, completions and copyright" \
        'for f in usr/bin/skycast usr/share/skycast/cities.tsv usr/share/man/man1/skycast.1 usr/share/bash-completion/completions/skycast usr/share/doc/skycast/copyright; do echo "$contents" | grep -q "\./$f\$" || exit 1; done'
    check "Depends names the libraries' packages" 'dpkg-deb -f "$deb" Depends | grep -q libncursesw6'
    check "the copyright carries the attributions" 'dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/skycast/copyright | grep -q GeoNames'
    dpkg-deb -x "$deb" "$work/debroot"
    check "the packaged skycast finds its data" '(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work/home2" "$work/debroot/usr/bin/skycast" find Tokyo | grep -q "Tokyo, JP")'
    rm -f "$deb"
else
    not_ok "make deb failed: $(tail -5 "$work/deb.log")"
fi

echo
echo "install: $passed passed, $failed failed"
[ $failed = 0 ]
