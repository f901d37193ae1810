import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { PipelineMetrics } from '@winnow/metrics';
import { pino } from 'pino';
import { startActivityLog } from './activity.js';

/** A real pino logger whose lines are kept, parsed. */
function keptLogger() {
  const lines: { level: number; msg: string; activity?: Record<string, unknown> }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

test('one activity line says what the counters grew by since the last line, and an interval with nothing to say logs nothing', async () => {
  const metrics = new PipelineMetrics();
  const { log, lines } = keptLogger();
  const activity = startActivityLog(metrics, log, 3_600_000);
  try {
    metrics.fetches.inc({ outcome: 'stored', reason: 'none' }, 12);
    metrics.fetches.inc({ outcome: 'refused', reason: 'http-404' }, 3);
    metrics.fetches.inc({ outcome: 'retry', reason: 'retriable-failure' }, 5);
    metrics.fetches.inc({ outcome: 'deferred', reason: 'host-busy' }, 40);
    metrics.extractions.inc({ method: 'pipeline', verdict: 'agreed', reason: 'none' }, 10);
    metrics.extractions.inc({ method: 'reader', verdict: 'none', reason: 'no-template' }, 2);
    metrics.jobs.inc({ queue: 'extract', outcome: 'completed' }, 12);
    metrics.jobs.inc({ queue: 'index', outcome: 'failed' });
    await activity.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 1);
    const [first] = lines;
    assert.deepEqual(
      { ...first?.activity, seconds: undefined },
      {
        seconds: undefined,
        fetched: { stored: 12, refused: 3, retry: 5 },
        notStored: { 'http-404': 3 },
        extracted: { agreed: 10, 'no template': 2 },
        index: {},
        backoffs: {},
        jobFailures: { 'index failed': 1 },
      },
    );
    assert.match(
      first?.msg ?? '',
      /^in the last \d+ s: visited 20 URLs \(12 stored, 5 retry, 3 refused\); not stored: 3 http-404; extracted 12 pages \(10 agreed, 2 no template\); job attempts failed: 1 index failed$/,
    );

    await activity.flush();
    metrics.jobs.inc({ queue: 'extract', outcome: 'completed' });
    await activity.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 1, 'nothing new worth a line: completed jobs are counted, not reported');

    metrics.indexWrites.inc({ outcome: 'indexed' }, 4);
    metrics.hostBackoffs.inc({ host: 'news.example' });
  } finally {
    await activity.stop();
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lines.length, 2, 'stopping logs what is left');
  assert.deepEqual([lines[1]?.activity?.index, lines[1]?.activity?.backoffs], [{ indexed: 4 }, { 'news.example': 1 }]);
});
