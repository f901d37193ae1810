import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { openDb, prestartEmbeddedDatabase } from './db.js';

const execFileAsync = promisify(execFile);
let dataDir: string;

before(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'winnow-prestart-')), 'pglite');
  const db = await openDb({ dataDir, maintenance: false });
  await db.exec("CREATE TABLE noted (word text); INSERT INTO noted VALUES ('kept')");
  await db.close();
});
after(async () => {
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

test('a database thread started before its directory was known opens the directory it is then sent', async () => {
  prestartEmbeddedDatabase(false);
  const db = await openDb({ dataDir, maintenance: false });
  try {
    assert.deepEqual(await db.query('SELECT word FROM noted'), [{ word: 'kept' }]);
    await db.exec("INSERT INTO noted VALUES ('added')");
  } finally {
    await db.close();
  }
});

test('a thread started early for another use is ended, and the database opens in a thread of its own', async () => {
  prestartEmbeddedDatabase(true);
  const db = await openDb({ dataDir, maintenance: false });
  try {
    assert.deepEqual(await db.query('SELECT word FROM noted ORDER BY word'), [{ word: 'added' }, { word: 'kept' }]);
  } finally {
    await db.close();
  }
});

test('a thread started early and never used keeps no process alive', async () => {
  // A script of its own: a worker thread inherits its process's flags, and `--input-type` (for `-e`) is refused in one.
  const script = join(dataDir, '..', 'prestart-only.mjs');
  await writeFile(
    script,
    `const db = await import(${JSON.stringify(new URL('./db.js', import.meta.url).href)}); db.prestartEmbeddedDatabase(false); console.log('started');\n`,
  );
  // Were the thread to hold the process, it would never end, and the test would fail on this bound.
  const { stdout } = await execFileAsync(process.execPath, [script], { timeout: 60_000 });
  assert.equal(stdout.trim(), 'started');
});
