/** The services `winnow worker <name>` runs, named without loading them. */
export const WORKER_NAMES = ['crawler', 'templater', 'extractor', 'indexer', 'api'] as const;

export type WorkerName = (typeof WORKER_NAMES)[number];
