import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutTrailingPrompts } from './trailingPrompts.js';

const line = (text: string, path = 'HTML.BODY.DIV.P') => ({ path, text });
const paragraph = 'The herons came back to the marsh this week, after a long and dry winter.';
const texts = (blocks: readonly { text: string }[]) => blocks.map((block) => block.text);

describe('withoutTrailingPrompts', () => {
  it('drops the invitations, credits and labels that end the text', () => {
    const blocks = [
      line(paragraph),
      line(paragraph),
      line('(Reporting by Jane Roe; Editing by John Doe)'),
      line('Get the latest updates right in your inbox. Subscribe to our newsletters.'),
      line('Like this:'),
      line('Comments'),
    ];
    assert.deepEqual(texts(withoutTrailingPrompts(blocks)), [paragraph, paragraph]);
    const contact = [line(paragraph), line('Write to Jane Roe at jane.roe@example.com'), line('Like this story? Share it with a friend!')];
    assert.deepEqual(texts(withoutTrailingPrompts(contact)), [paragraph]);
  });

  it('keeps labels right after the story, and a run without a prompt', () => {
    const signed = [line(paragraph), line('Regan'), line('Click here to subscribe to the Marsh Newsletter')];
    assert.deepEqual(texts(withoutTrailingPrompts(signed)), [paragraph, 'Regan']);
    const plain = [line(paragraph), line('Thanks Junior!')];
    assert.equal(withoutTrailingPrompts(plain), plain);
  });

  it('keeps a prompt in the middle of the text, bare mentions of a newsletter, and the first line', () => {
    const middle = [line(paragraph), line('Sign up for our newsletter today.'), line(paragraph)];
    assert.equal(withoutTrailingPrompts(middle), middle);
    const mention = [line(paragraph), line('Reprinted from my newsletter of March 20, 2002.'), line('Follow Goal.com on Twitter.')];
    assert.equal(withoutTrailingPrompts(mention), mention);
    const only = [line('Subscribe to our newsletter now')];
    assert.equal(withoutTrailingPrompts(only), only);
  });

  it('knows a few phrasings of other languages', () => {
    assert.deepEqual(texts(withoutTrailingPrompts([line(paragraph), line('Inscreva-se na nossa newsletter!')])), [paragraph]);
    assert.deepEqual(texts(withoutTrailingPrompts([line(paragraph), line('Abonnez-vous à notre lettre')])), [paragraph]);
  });
});
