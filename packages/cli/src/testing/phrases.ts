import type { DemoWeb } from '@winnow/demo-corpus';
import { search, type Runtime } from '@winnow/runtime';
import { wordsOf } from '@winnow/search';

/** Phrases only the demo sites' boilerplate holds: navigation, footers, a sidebar, an advertisement. */
export const BOILERPLATE_ONLY_PHRASES = [
  'Contact the newsroom',
  'Letters and tips welcome',
  'written by volunteers and published under a free licence',
  'Winter tyres at half price',
];

/** URLs of the served pages whose gold main text holds the phrase's words in a row. */
export function pagesWithPhrase(web: DemoWeb, phrase: string): string[] {
  const wanted = ` ${wordsOf(phrase).join(' ')} `;
  return web.sites.flatMap((site) => [...site.goldByUrl].filter(([, gold]) => ` ${wordsOf(gold).join(' ')} `.includes(wanted)).map(([url]) => url)).sort();
}

/** Every URL a query finds, page after page of results. */
export async function searchAll(rt: Runtime, query: string): Promise<string[]> {
  const urls: string[] = [];
  for (let page = 1; ; page++) {
    const result = await search(rt, { q: query, page, size: 100 });
    urls.push(...result.hits.map((hit) => hit.url));
    if (urls.length >= result.total) return urls.sort();
  }
}
