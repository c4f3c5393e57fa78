/**
 * `~=` regular expressions follow Python's `re` (search semantics, Python-only syntax translated)
 * and `*=` globs follow the format's glob table (docs/conditions.md "Regular expressions",
 * "Globs").
 */
import { describe, expect, it } from "vitest";
import { translatePythonRegex } from "../../services/config/conditions/python-regex.js";
import { globMatches } from "../../services/config/conditions/glob.js";

function search(pattern: string, text: string): boolean {
  const r = translatePythonRegex(pattern);
  return new RegExp(r.source, r.flags).test(text);
}

describe("Python regular expressions", () => {
  const cases: [string, string, boolean][] = [
    ["(?i)wip", "WIP: draft", true],
    ["wip", "WIP: draft", false],
    ["^release/", "release/1.2", true],
    ["^release/", "hotfix release/1.2", false],
    ["release/", "hotfix release/1.2", true],
    ["\\.py$", "setup.py", true],
    ["\\.py$", "setup.py\n", true],
    ["\\.py$", "setup.pyc", false],
    ["\\.py$", "a.py\nb", false],
    ["(?m)^Change-Id:", "Fix\n\nChange-Id: I12", true],
    ["^Change-Id:", "Fix\n\nChange-Id: I12", false],
    ["\\AFoo\\Z", "Foo", true],
    ["\\AFoo\\Z", "Foo\n", false],
    ["(?m)\\Abar", "foo\nbar", false],
    ["(?P<v>\\d+)-(?P=v)", "12-12", true],
    ["(?P<v>\\d+)-(?P=v)", "12-13", false],
    ["[]a]", "]", true],
    ["[^]a]", "]", false],
    ["\\#[0-9]{1,6}(\\s+|$)", "fixes #123", true],
    ["^x{,2}y$", "xxy", true],
    ["^x{,2}y$", "xxxy", false],
    ["a{", "a{", true],
    ["(?x) a b  # spaced out", "ab", true],
    ["(?s)a.b", "a\nb", true],
    ["a.b", "a\nb", false],
    ["\\x41", "A", true],
    ["\\u00e9", "café", true],
    ["\\U0001F600", "smile 😀", true],
    ["\\0", "\u0000", true],
    ["[\\b]", "\b", true],
    ["(?#a comment)abc", "abc", true],
    ["(a)\\1", "aa", true],
    ["^(?!(l10n.toml|app/x\\.xml)).+$", "src/a.ts", true],
    ["^(?!(l10n.toml|app/x\\.xml)).+$", "l10n.toml", false],
    ["^Bump [^\\s]+ from ([\\d]+)\\..+ to \\1\\.", "Bump lodash from 4.1 to 4.2.", true],
    ["^Bump [^\\s]+ from ([\\d]+)\\..+ to \\1\\.", "Bump lodash from 4.1 to 5.0.", false],
    ["^(dependabot(\\\\[bot\\\\])?|daaveuk)$", "daaveuk", true],
    ["\\[bot\\]$", "renovate[bot]", true],
    ["(?<=v)\\d", "v1", true],
    ["(?i)(?m)^wip", "x\nWip", true],
  ];
  it.each(cases)("%j searched in %j -> %s", (pattern, text, expected) => {
    expect(search(pattern, text)).toBe(expected);
  });

  const refused: [string, string][] = [
    ["\\q", "bad escape \\q at position 0"],
    ["[\\A]", "bad escape \\A at position 1"],
    ["a(?i)", "global flags not at the start of the expression at position 1"],
    ["(?i:a)", "scoped inline flags such as (?i:...) are not supported; put (?i) at the start at position 0"],
    ["(?>a)", "atomic groups are not supported at position 0"],
    ["(?(1)a|b)", "conditional groups are not supported at position 0"],
    ["a++", "possessive quantifiers are not supported at position 2"],
    ["(a", "missing ), unterminated subpattern at position 0"],
    ["a)", "unbalanced parenthesis at position 1"],
    ["\\2(a)(b)", "invalid group reference 2 at position 0"],
    ["(?P=x)", 'unknown group name "x" at position 0'],
    ["\\x4", "incomplete escape \\x4 at position 0"],
    ["\\N{DASH}", "named Unicode escapes \\N{...} are not supported at position 0"],
    ["(?L)a", "the L flag is only allowed with bytes patterns at position 0"],
    ["(?<name>a)", "unknown extension (?< at position 0"],
  ];
  it.each(refused)("refuses %j", (pattern, reason) => {
    expect(() => translatePythonRegex(pattern)).toThrow(`invalid regular expression "${pattern}": ${reason}`);
  });
});

describe("globs", () => {
  const cases: [string, string, boolean][] = [
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**/*.ts", "lib/a.ts", false],
    ["src/**/*.ts", "src/a.tsx", false],
    ["*.md", "README.md", true],
    ["*.md", "docs/a.md", false],
    ["**/*.md", "docs/a.md", true],
    ["**/*.md", "a.md", true],
    ["docs/*", "docs/a", true],
    ["docs/*", "docs/a/b", false],
    ["docs/**", "docs/a/b", true],
    ["docs/**", "docs", true],
    ["docs/**", "docsx/a", false],
    ["**/test_*.py", "test_a.py", true],
    ["**/test_*.py", "a/b/test_a.py", true],
    ["file?.txt", "file1.txt", true],
    ["file?.txt", "file10.txt", false],
    ["a?b", "a/b", false],
    ["[abc].txt", "a.txt", true],
    ["[abc].txt", "d.txt", false],
    ["[!abc].txt", "d.txt", true],
    ["[!abc].txt", "a.txt", false],
    ["[a-c]x", "bx", true],
    ["{src,lib}/**/*.{js,ts}", "lib/x/y.ts", true],
    ["{src,lib}/**/*.{js,ts}", "test/y.ts", false],
    ["a.b", "axb", false],
    ["release/*", "release/1.0", true],
    ["area/*", "area/ui", true],
    ["{fix,feat}:*", "feat: add", true],
    ["{fix,feat}:*", "chore: x", false],
    ["a**b", "axxb", true],
    ["a**b", "ax/xb", false],
  ];
  it.each(cases)("%j matches %j -> %s", (pattern, value, expected) => {
    expect(globMatches(pattern, value)).toBe(expected);
  });

  it.each([
    ["[abc", "unbalanced ["],
    ["{a,b", "unbalanced {"],
    ["a}", "unbalanced }"],
    ["[!]", "empty character set"],
  ])("refuses %j", (pattern, reason) => {
    expect(() => globMatches(pattern, "x")).toThrow(`invalid glob "${pattern}": ${reason}`);
  });
});
