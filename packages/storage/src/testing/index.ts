export { createScratchDatabase, TEST_POSTGRES_URL, type ScratchDatabase } from './scratchDatabase.js';
export { type PostgresServer, startPostgresServer } from './postgresServer.js';
