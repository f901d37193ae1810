import { DEMO_SITE_NAMES, demoSite } from '@winnow/demo-corpus';
import type { GoldPage } from './dataset.js';

/** The bundled demo corpus as evaluation pages (`id` is site and path), for `winnow eval --demo`. */
export function demoGoldPages(): GoldPage[] {
  return DEMO_SITE_NAMES.flatMap((name) =>
    demoSite(name).pages.map((page) => ({ id: `${name}${page.path}`, site: name, url: null, html: page.html, gold: page.gold })),
  );
}
