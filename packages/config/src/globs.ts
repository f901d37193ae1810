import { Minimatch, type MinimatchOptions } from 'minimatch';
import { RE2JS } from 're2js';

/**
 * Patterns a glob's braces may expand to. Each is compiled and tried on every link: `{a,b}`
 * sixteen times is 65,536 patterns (3 s and 276 MB to compile), `{1..200000}` 200,000.
 */
export const MAX_GLOB_ALTERNATIVES = 32;
/** `*` wildcards one path segment of a glob may hold: `*-*-*.html` is a real need, a dozen stars is not. */
export const MAX_SEGMENT_WILDCARDS = 4;
/** Case-insensitive, and `dot`: a URL is not a file name, and `/.well-known/…` is as much under a site's `/**` as any other path. */
const OPTIONS: MinimatchOptions = { nocase: true, dot: true, braceExpandMax: MAX_GLOB_ALTERNATIVES + 1 };

/** Minimatch's guard against matching `.` and `..` with a wildcard (a lookahead, which RE2 has not): checked apart. */
const DOT_SEGMENT_GUARD = '(?!(?:^|\\/)\\.\\.?(?:$|\\/))';

/**
 * A URL glob of a site's `allow` list (Crawlee's `enqueueLinks` syntax, as minimatch reads it)
 * whose matching costs time linear in the URL, whatever the URL: the crawled site writes its
 * links, and minimatch's own backtracking RegExps take time cubic in a segment's length for
 * `*-*-*.html` (a 2,048-character link: 0.8 s) and exponential for `*a*a*a…b`. Minimatch still
 * splits the glob and the URL into path segments and walks `**` (greedily: it never retries a
 * section once a later one walked off the URL); each segment's pattern runs on RE2JS, a
 * linear-time engine. Worst cases measured by `scripts/glob-worst-case.mjs` for a 2,048-character
 * link (the trap guards' limit, checked first): about 2 ms for four wildcards in one segment, for
 * 32 brace alternatives of four wildcards each, or for 17 `**` over 500 segments.
 * Throws a `GlobError` naming the glob when it is refused (see `globProblem`).
 */
export class UrlGlob {
  readonly #minimatch: Minimatch;

  constructor(readonly glob: string) {
    this.#minimatch = new Minimatch(glob, OPTIONS);
    const problem = limitsProblem(this.#minimatch);
    if (problem) throw new GlobError(glob, problem);
    for (const part of this.#minimatch.set.flat()) {
      if (part instanceof RegExp) Reflect.defineProperty(part, 'test', { value: linearTest(glob, part) });
    }
  }

  matches(url: string): boolean {
    return this.#minimatch.match(url);
  }
}

export class GlobError extends Error {
  override readonly name = 'GlobError';
  constructor(
    readonly glob: string,
    readonly problem: string,
  ) {
    super(`glob "${glob}" refused: ${problem}`);
  }
}

/**
 * Globs compiled once, for the crawler's matching and for validation alike: compiling one per link
 * took 5% of a crawler's time, and a site's configuration is validated again every time it is read
 * (each extraction job reads its site's). Sites have a handful each. Refused globs are not kept.
 */
const compiledGlobs = new Map<string, UrlGlob>();
const MAX_COMPILED_GLOBS = 10_000;

/** The glob compiled (see `UrlGlob`); throws a `GlobError` when it is refused. */
export function urlGlob(glob: string): UrlGlob {
  let compiled = compiledGlobs.get(glob);
  if (!compiled) {
    compiled = new UrlGlob(glob);
    if (compiledGlobs.size >= MAX_COMPILED_GLOBS) compiledGlobs.clear();
    compiledGlobs.set(glob, compiled);
  }
  return compiled;
}

/** Why a glob may not be one of a site's allowed globs, or null. */
export function globProblem(glob: string): string | null {
  try {
    urlGlob(glob);
    return null;
  } catch (error) {
    if (error instanceof GlobError) return error.problem;
    throw error;
  }
}

function limitsProblem(minimatch: Minimatch): string | null {
  if (minimatch.set.length > MAX_GLOB_ALTERNATIVES) return `its braces expand to more than ${MAX_GLOB_ALTERNATIVES} patterns`;
  for (const parts of minimatch.globParts) {
    for (const part of parts) {
      // Escaped characters are literal: `\*` is no wildcard.
      const wildcards = part === '**' ? 0 : (part.replace(/\\./g, '').match(/\*+/g)?.length ?? 0);
      if (wildcards > MAX_SEGMENT_WILDCARDS) return `its path segment "${part}" has ${wildcards} "*" wildcards, more than ${MAX_SEGMENT_WILDCARDS}`;
    }
  }
  return null;
}

/** A path segment's RegExp, run by RE2JS instead of V8's backtracking engine. */
function linearTest(glob: string, segment: RegExp): (text: string) => boolean {
  const guarded = segment.source.startsWith(`^${DOT_SEGMENT_GUARD}`);
  const source = guarded ? `^${segment.source.slice(DOT_SEGMENT_GUARD.length + 1)}` : segment.source;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, segment.flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    // Lookarounds (a negated extglob, `!(…)`) and backreferences have no linear-time match.
    throw new GlobError(glob, 'it uses a pattern that cannot be matched in linear time (a negated extglob "!(…)"?)');
  }
  return guarded ? (text) => text !== '.' && text !== '..' && compiled.test(text) : (text) => compiled.test(text);
}
