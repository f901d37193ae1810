import { fileURLToPath } from 'node:url';

/** The repository's `migrations/` folder: plain SQL files applied in name order. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));
