import { ExtractionError, type RenderedPage } from '@winnow/extract';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';

/**
 * Lays pages out in the system Chromium and reads back what `vge` needs: every visible element's
 * box, font size, background and display, with its text in document order. Pages are set as
 * content with JavaScript off and every network request refused, so a page is rendered from its
 * own markup and inline styles alone (external stylesheets, images and scripts never load): the
 * same page always renders the same, and nothing outside this machine is contacted.
 */
export class PageRenderer {
  #page: Page | undefined;

  private constructor(private readonly browser: Browser) {}

  static async launch(executablePath: string): Promise<PageRenderer> {
    return new PageRenderer(await launchChromium(executablePath, 'vge renders pages in Chromium'));
  }

  /** Renders one page at a time in one reused tab (a new browser context per page costs more than the layout). */
  async render(html: string): Promise<RenderedPage> {
    if (html.trim() === '') throw new ExtractionError('empty-input', 'the page is empty');
    const page = await this.#tab();
    try {
      await page.setContent(html, { waitUntil: 'domcontentloaded', timeout: 30_000 });
      return await page.evaluate(COLLECT);
    } catch (error) {
      // A page that hangs or crashes the tab must not poison the next one.
      this.#page = undefined;
      await page
        .context()
        .close()
        .catch(() => undefined);
      throw new ExtractionError('render-failed', `the browser could not lay the page out: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  async #tab(): Promise<Page> {
    if (!this.#page) {
      const context = await this.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
      await context.route('**/*', (route) => route.abort());
      this.#page = await context.newPage();
    }
    return this.#page;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * Runs in the page: visible elements in pre-order with an explicit stack (deep pages must not
 * overflow the browser's call stack). Hidden elements (display:none, visibility:hidden) and
 * elements that never show text are left out with their subtrees.
 */
const COLLECT = (): RenderedPage => {
  const never = new Set([
    'SCRIPT',
    'STYLE',
    'NOSCRIPT',
    'TEMPLATE',
    'HEAD',
    'META',
    'LINK',
    'TITLE',
    'IFRAME',
    'OBJECT',
    'EMBED',
    'SVG',
    'CANVAS',
    'SELECT',
    'TEXTAREA',
  ]);
  const elements: RenderedPage['elements'] = [];
  const describe = (element: Element, parent: number): number => {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return -1;
    const box = element.getBoundingClientRect();
    elements.push({
      tag: element.tagName.toLowerCase(),
      parent,
      x: box.left + window.scrollX,
      y: box.top + window.scrollY,
      width: box.width,
      height: box.height,
      fontSize: Number.parseFloat(style.fontSize) || 16,
      background: style.backgroundColor,
      inline: style.display === 'inline' || style.display === 'contents',
      link: element.tagName === 'A' && element.hasAttribute('href'),
      items: [],
    });
    return elements.length - 1;
  };
  const body = document.body;
  if (!body) return { width: 0, height: 0, elements };
  describe(body, -1);
  const stack: { node: Node; index: number; child: number }[] = [{ node: body, index: 0, child: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { node: Node; index: number; child: number };
    const child = frame.node.childNodes[frame.child++];
    if (!child) {
      stack.pop();
      continue;
    }
    const items = (elements[frame.index] as RenderedPage['elements'][number]).items;
    if (child.nodeType === Node.TEXT_NODE) {
      const text = (child as Text).data;
      if (text !== '') items.push(text);
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const element = child as Element;
      if (element.tagName === 'BR') items.push('\n');
      if (never.has(element.tagName.toUpperCase())) continue;
      const index = describe(element, frame.index);
      if (index < 0) continue;
      items.push(index);
      stack.push({ node: element, index, child: 0 });
    }
  }
  const root = document.documentElement;
  return { width: root.scrollWidth, height: root.scrollHeight, elements };
};
