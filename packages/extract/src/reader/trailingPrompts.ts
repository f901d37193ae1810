import type { ExtractedBlock } from '../result/result.js';

/** A prompt or credit line holds at most this many words: a sentence or two, not a paragraph of the story. */
const MAX_PROMPT_WORDS = 60;
/** A label ("Like this:", "Comments", "Tags") holds at most this many words ... */
const MAX_LABEL_WORDS = 3;
/** ... and this many characters, with no sentence punctuation (`LABEL`). */
const LABEL = /^[^.!?]{1,30}$/u;

/**
 * Invitations a page adds under its stories, in their common phrasings: to subscribe or sign up
 * (to a newsletter, updates, a channel), to have something "delivered to your inbox", to share the
 * story or "Like this story?", "If you enjoyed this ...", "Join our forums", a line opening with
 * "Click here", and a contact line "Write to / Email / Contact <name> at <address>". The verbs
 * must come with their objects: a bare "newsletter", "inbox" or "follow us" also occurs in the
 * last paragraph of stories and in gold texts (dragnet's and readability's gold keep "Follow X on
 * Twitter" and reporters' bios, so neither is here). A few phrasings of other languages with the
 * same meaning (none occurs at the end of a shared dataset's reading; they change no figure).
 */
const PROMPTS: readonly RegExp[] = [
  /\b(?:subscribe|sign up|signup)\b.{0,60}\b(?:newsletters?|e-?mails?|updates|inbox|alerts|channel|today|now|here)\b/i,
  /\bdelivered (?:to|through|into) your (?:inbox|letterbox|mailbox|door)/i,
  /^subscribe\b/i,
  /\bshare (?:it|this) with\b/i,
  /\blike this (?:story|article|post)\?/i,
  /\bif you (?:enjoyed|liked) this\b/i,
  /\bjoin our \S+ (?:forums?|community|newsletter|mailing list)\b/i,
  /^click here\b/i,
  /^(?:write to|e-?mail|contact|reach) [^.]{0,60}\bat [\w.+-]+@/i,
  // Portuguese, Spanish, French, German, Italian
  /(?<!\p{L})(?:inscreva-se|assine (?:a|o|j[áa]|agora|nossa|nosso)|suscr[íi]bete|s[íi]guenos en|abonnez-vous|inscrivez-vous|abonnieren sie|newsletter abonnieren|folgen sie uns|iscriviti|seguici su)(?!\p{L})/iu,
];

/**
 * Credit lines of a news agency's story, which the ScrapingHub benchmark's gold leaves out:
 * "(Reporting by ...; Editing by ...)", "X contributed to this report".
 */
const CREDITS: readonly RegExp[] = [/^\(?(?:additional )?reporting by\b/i, /\bcontributed (?:to )?(?:this )?report(?:ing)?\b/i, /^editing by\b/i];

type Kind = 'prompt' | 'label' | 'other';

function kindOf(text: string): Kind {
  const trimmed = text.trim();
  if (trimmed === '') return 'label';
  const words = trimmed.split(/\s+/).length;
  if (words > MAX_PROMPT_WORDS) return 'other';
  if (PROMPTS.some((prompt) => prompt.test(trimmed)) || CREDITS.some((credit) => credit.test(trimmed))) return 'prompt';
  return words <= MAX_LABEL_WORDS && LABEL.test(trimmed) ? 'label' : 'other';
}

/**
 * The reading without its trailing run of invitations and credits (issue 38: single boilerplate
 * lines at the end of the article): from the last line up, lines that are a prompt (`PROMPTS`), a
 * credit (`CREDITS`) or a label (`LABEL`: "Like this:", "Comments"), as long as the run holds one
 * prompt or credit; the labels right after the story, before the run's first prompt, stay (a short
 * last line of a story, a signature, is no box). Only a run ending the text goes: a line asking to
 * subscribe in the middle of a text may be what the page is about, and the first line always stays.
 * Applied to the `reader` method's text only (the pipeline's templates keep their own figures).
 * Reader shingle F1 without and with: scrapinghub 0.9694 and 0.9705 (18 pages: Reuters' and AP's
 * credits, newsletter invitations, contact lines), dragnet 0.9117 and 0.9119, daniel 0.9091 and
 * 0.9093, cleaneval +0.0001, wcxb +0.0001, readability and cleanportaleval unchanged. With a bare
 * "newsletter", "inbox", "follow us" or an e-mail address anywhere in the line instead,
 * scrapinghub gained 0.0005 and dragnet and readability lost 0.0004 and 0.0007 (docs/tried.md).
 */
export function withoutTrailingPrompts(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  // The run's first prompt: the labels before it, between the story and the run, stay.
  let firstPrompt = -1;
  for (let i = blocks.length - 1; i > 0; i--) {
    const kind = kindOf((blocks[i] as ExtractedBlock).text);
    if (kind === 'other') break;
    if (kind === 'prompt') firstPrompt = i;
  }
  return firstPrompt < 0 ? blocks : blocks.slice(0, firstPrompt);
}
