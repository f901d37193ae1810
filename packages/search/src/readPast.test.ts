import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BRIDGE_SIDE_WORDS, bridgesOf, INTERRUPTION_MAX_WORDS } from './readPast.js';

test('each line is bridged to the lines past one and two short lines after it, and to none past three', () => {
  const text = ['Alpha beta gamma.', 'Credit one', 'Delta epsilon.', 'x', 'y', 'Zeta eta.', 'a', 'b', 'c', 'Theta.'].join('\n');
  assert.deepEqual(bridgesOf(text), [
    'alpha beta gamma delta epsilon',
    'alpha beta gamma x',
    'credit one x',
    'credit one y',
    'delta epsilon y',
    'delta epsilon zeta eta',
    'x zeta eta',
    'x a',
    'y a',
    'y b',
    'zeta eta b',
    'zeta eta c',
    'a c',
    'a theta',
    'b theta',
  ]);
});

test(`a line of more than ${INTERRUPTION_MAX_WORDS} words is not read past; one of that many is`, () => {
  const line = (words: number) => Array.from({ length: words }, (_, i) => `w${i}`).join(' ');
  assert.deepEqual(bridgesOf(['First.', line(INTERRUPTION_MAX_WORDS + 1), 'Last.'].join('\n')), []);
  assert.deepEqual(bridgesOf(['First.', line(INTERRUPTION_MAX_WORDS), 'Last.'].join('\n')), ['first last']);
});

test(`a bridge holds the last ${BRIDGE_SIDE_WORDS} words of its first line and the first ${BRIDGE_SIDE_WORDS} of its last; empty lines are no lines`, () => {
  const long = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}${i}`).join(' ');
  const [bridge] = bridgesOf([long('a'), '', 'Photo: AP', '  ', long('b')].join('\n'));
  const words = bridge?.split(' ') ?? [];
  assert.equal(words.length, 2 * BRIDGE_SIDE_WORDS);
  assert.equal(words[0], `a${40 - BRIDGE_SIDE_WORDS}`);
  assert.equal(words.at(-1), `b${BRIDGE_SIDE_WORDS - 1}`);
  assert.deepEqual(bridgesOf('One line only.'), []);
  assert.deepEqual(bridgesOf(''), []);
});
