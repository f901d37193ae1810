import { documentIdFor, type IndexDocument } from '../searchIndex.js';

/**
 * A search document of `site` and `url` for tests: its id as the indexer makes it, no titles, a
 * first template version and a fixed extraction time unless `fields` say otherwise.
 */
export function testDocument(fields: Pick<IndexDocument, 'site' | 'url' | 'pageId' | 'mainText'> & Partial<IndexDocument>): IndexDocument {
  return {
    docId: documentIdFor(fields.site, fields.url),
    title: '',
    pageTitle: '',
    templateVersion: 1,
    extractedAt: new Date('2026-11-01T00:00:00Z'),
    ...fields,
  };
}
