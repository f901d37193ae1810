import { z } from 'zod';
import { ExtractionError } from '../result/errors.js';

/** Bumped whenever the meaning of a stored template changes; older templates are refused. */
export const TEMPLATE_SCHEMA_VERSION = 1;

const paramsSchema = z.object({
  similarity: z.number().gt(0).lt(1),
  repeatShare: z.number().gt(0).lte(1),
  pathMode: z.enum(['tags', 'tags+classes']),
  refine: z.boolean(),
});

const nonContentBlockSchema = z.object({
  path: z.string().min(1),
  ids: z.array(z.number().int().nonnegative()),
  counts: z.array(z.number().int().positive()),
});

const templateSchema = z.object({
  schemaVersion: z.literal(TEMPLATE_SCHEMA_VERSION),
  params: paramsSchema,
  pageCount: z.number().int().positive(),
  contentPaths: z.array(z.string().min(1)),
  /** fastce+ only: the path of the sample pages' main region (see region.ts); null for fastce. */
  regionPath: z.string().min(1).nullable(),
  nonContent: z.array(nonContentBlockSchema),
});

/**
 * A site's FastCE template (paper, Section III): the traversal paths of content blocks, plus the
 * non-content blocks that share those paths, stored as feature vectors (hashed term ids and counts,
 * never page text). JSON-serialisable; preparing twice from the same pages gives the same template.
 */
export type Template = z.infer<typeof templateSchema>;
export type FastCeParams = z.infer<typeof paramsSchema>;
export type StoredBlock = z.infer<typeof nonContentBlockSchema>;

/** The paper's FastCE. */
export const DEFAULT_FASTCE_PARAMS: Readonly<FastCeParams> = Object.freeze({
  similarity: 0.9,
  repeatShare: 0.1,
  pathMode: 'tags',
  refine: false,
});

/** fastce+: the paper's parameters with this project's refinements (see `detect`). */
export const FASTCE_PLUS_PARAMS: Readonly<FastCeParams> = Object.freeze({ ...DEFAULT_FASTCE_PARAMS, refine: true });

/** Validates a template that crossed a boundary (a database row, a file, a job) and returns it typed. */
export function parseTemplate(value: unknown): Template {
  const parsed = templateSchema.safeParse(value);
  if (!parsed.success) {
    throw new ExtractionError('invalid-template', `not a FastCE template: ${z.prettifyError(parsed.error)}`);
  }
  for (const block of parsed.data.nonContent) {
    if (block.ids.length !== block.counts.length) {
      throw new ExtractionError('invalid-template', `stored block at ${block.path} has ${block.ids.length} ids but ${block.counts.length} counts`);
    }
  }
  return parsed.data;
}
