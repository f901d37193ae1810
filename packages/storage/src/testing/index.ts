export { createScratchDatabase, TEST_POSTGRES_URL, type ScratchDatabase } from './scratchDatabase.js';
