import { type ExtractionResult, extractWithVge, METHOD_NAMES, methodByName, type PageExtractor, preparedExtractor } from '@winnow/extract';
import { PageRenderer } from '@winnow/render';

/** Every method the harness can score: the extraction core's, and `vge`, which needs a browser. */
export const EVAL_METHOD_NAMES: readonly string[] = [...METHOD_NAMES, 'vge'];

export type AsyncPageExtractor = (html: string) => ExtractionResult | Promise<ExtractionResult>;

/** A method ready to score pages; `close` frees what it opened (vge's browser). */
export type ScoringMethod =
  | { kind: 'single'; name: string; extract: AsyncPageExtractor; close(): Promise<void> }
  | { kind: 'template'; name: string; prepare(pages: readonly string[]): PageExtractor; close(): Promise<void> };

const nothingToClose = async () => undefined;

/** Resolves a method by name; `vge` launches the Chromium at `chromiumPath` and says clearly when there is none. */
export async function openScoringMethod(name: string, chromiumPath?: string): Promise<ScoringMethod> {
  if (name === 'vge') {
    if (!chromiumPath) throw new Error('vge lays pages out in Chromium: give the path of one (WINNOW_CHROMIUM_PATH)');
    const renderer = await PageRenderer.launch(chromiumPath);
    return { kind: 'single', name, extract: async (html) => extractWithVge(await renderer.render(html)), close: () => renderer.close() };
  }
  const method = methodByName(name);
  return method.kind === 'single'
    ? { kind: 'single', name: method.name, extract: method.extract, close: nothingToClose }
    : { kind: 'template', name: method.name, prepare: (pages) => preparedExtractor(method, pages), close: nothingToClose };
}
