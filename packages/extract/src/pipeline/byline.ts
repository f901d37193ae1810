/** A byline is a short line: more words than this is a sentence that starts with "By". */
const BYLINE_WORDS = 20;

/** "By …", "Posted by …", "Post written by …", "Reported by …" at the start of a line, or an "Author:" label, followed by a name, anywhere in it. */
const BYLINE = /^(?:(?:posted|written|post written|reported)\s+)?by\s+\p{L}|\bauthor\s*:\s*\p{L}/iu;

/**
 * Whether a line of the article's header is its byline, which joins the text with the standfirst
 * (issue 38: the article's edges). A reader searches an author's name, and a phrase from the
 * headline into the first paragraph crosses it. English forms only: "Autor:" brought rp.pl's and
 * goodcontents.net's bylines in, which daniel's gold keeps on 3 pages of 10 (k-fold `pipeline` lcs
 * F1 daniel -0.00007, against -0.00001 without). Datelines stay out: dragnet's gold keeps them,
 * daniel's and cleanportaleval's do not (with them, daniel -0.0050 and cleanportaleval -0.0045).
 * Figures: docs/design.md.
 */
export function isByline(text: string): boolean {
  return BYLINE.test(text) && text.split(/\s+/).filter(Boolean).length <= BYLINE_WORDS;
}
