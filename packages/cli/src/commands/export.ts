import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportFormat } from '@winnow/config';
import { withOperator } from '../operator.js';

/**
 * `winnow export <site>`: the site's cleaned text (JSON lines or CSV), or its fetches as a WARC
 * file, to stdout or `--output`, streamed as it is read: a large site is never in memory at once.
 * A reader that stops early (`| head`) ends the export, as any command's output.
 */
export async function exportCommand(site: string, flags: { format: ExportFormat; output?: string }): Promise<void> {
  await withOperator(async (operator) => {
    const chunks = await operator.exportSite(site, flags.format);
    if (flags.output) {
      await pipeline(Readable.from(chunks), createWriteStream(flags.output));
      return;
    }
    try {
      await pipeline(Readable.from(chunks), process.stdout, { end: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
  });
}
