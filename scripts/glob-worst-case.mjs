// Prints how long the slowest links and globs we know of take to match, with minimatch's own
// RegExps ("before") and with `UrlGlob` ("after"). Run after `pnpm build`: node scripts/glob-worst-case.mjs
import { performance } from 'node:perf_hooks';
import { Minimatch } from '../packages/config/node_modules/minimatch/dist/esm/index.js';
import { UrlGlob } from '../packages/config/dist/index.js';

const MAX_URL_LENGTH = 2048;
const origin = 'http://example.com/';
const longSegment = (text) => origin + text.repeat(Math.ceil(MAX_URL_LENGTH / text.length)).slice(0, MAX_URL_LENGTH - origin.length);
/** Distinct short segments, as many as fit: the trap guard refuses a segment repeated three times. */
const manySegments = () => {
  let url = origin.slice(0, -1);
  for (let i = 0; url.length < MAX_URL_LENGTH - 8; i++) url += `/x${i.toString(36)}`;
  return url;
};
const alternatives = Array.from({ length: 32 }, (_, i) => `*-*-*-*${i}`).join(',');
const cases = [
  { glob: `${origin}*-*-*.html`, url: longSegment('-'), before: true },
  { glob: `${origin}*-*-*-*.html`, url: longSegment('-'), before: false },
  { glob: `${origin}${'*a'.repeat(4)}b`, url: longSegment('a'), before: false },
  { glob: `${origin}${'*a'.repeat(20)}b`, url: `${origin}${'a'.repeat(40)}`, before: false, refused: true },
  { glob: `${origin}{${alternatives}}.html`, url: longSegment('-'), before: false },
  { glob: `${origin}**/a/**/b/**/c/**/d`, url: manySegments(), before: true },
  { glob: `${origin}**${'/x*/**'.repeat(16)}/zz*/**`, url: manySegments(), before: true },
];

function time(label, run) {
  const start = performance.now();
  const result = run();
  console.log(`  ${label}: ${(performance.now() - start).toFixed(1)} ms (${result})`);
}

for (const { glob, url, before, refused } of cases) {
  console.log(`${glob.length > 80 ? `${glob.slice(0, 77)}...` : glob}  against ${url.length} characters`);
  if (before) time('minimatch', () => new Minimatch(glob, { nocase: true, dot: true }).match(url));
  else console.log('  minimatch: not run (minutes or more)');
  if (refused) {
    try {
      new UrlGlob(glob);
    } catch (error) {
      console.log(`  UrlGlob: ${error.message}`);
    }
    continue;
  }
  const compiled = new UrlGlob(glob);
  compiled.matches(url);
  time('UrlGlob', () => compiled.matches(url));
}
for (const glob of ['{1..200000}', '{a,b}'.repeat(16)])
  time(`compiling ${glob.slice(0, 30)}`, () => {
    try {
      new UrlGlob(glob);
      return 'accepted';
    } catch (error) {
      return error.message;
    }
  });
