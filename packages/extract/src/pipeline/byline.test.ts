import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isByline } from './byline.js';

describe('isByline', () => {
  it('reads "By …", "Posted by …", "Post written by …" and an "Author:" label as bylines, in any case', () => {
    for (const line of [
      'By ABC NEWS',
      'by Alexandre Roche on Thursday, January 12, 2012 at 10:00am',
      'Posted by Max Fisher on October 29, 2012',
      'Post written by Leo Babauta.',
      'Date:November 2, 2012 | Category:Tips | Author:Mary Boone',
    ]) {
      assert.ok(isByline(line), line);
    }
  });

  it('passes over datelines, sentences that start with "By", "by" inside a line, and a label without a name', () => {
    for (const line of [
      'July 24, 2012 5:44 PM',
      `By the end of the week ${'the council had met again and again '.repeat(3)}`,
      'Photographs taken by the agency',
      'Bystanders gathered outside',
      'Author:',
    ]) {
      assert.ok(!isByline(line), line);
    }
  });
});
