/**
 * The methods' names, apart from the methods: the configuration validates names without loading
 * the extraction core (a one-shot command's start-up). `names.test.ts` checks them against the registry.
 */

/** The names `templateMethodByName` accepts, in the order reports list them. */
export const TEMPLATE_METHOD_NAMES: readonly string[] = ['pipeline', 'fastce', 'fastce+', 'fastce+auto', 'ce'];

/** The names `singlePageMethodByName` accepts, in the order reports list them. */
export const SINGLE_PAGE_METHOD_NAMES: readonly string[] = ['auto', 'reader', 'mainblock', 'wlr', 'cnr', 'wnr', 'clr', 'ccb', 'accb', 'tccb', 'readability'];
