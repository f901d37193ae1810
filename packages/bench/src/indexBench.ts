import { loadEnv } from '@winnow/config';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from '@elastic/elasticsearch';
import { DEMO_SITE_NAMES, demoSite } from '@winnow/demo-corpus';
import { table } from '@winnow/eval';
import { documentIdFor, ElasticsearchIndex, INDEX_BODY, type IndexDocument } from '@winnow/search';
import { startLocalElasticsearch } from '@winnow/search/testing';

export interface IndexBenchFlags {
  documents: number;
  batch: number;
}

/** `count` documents from the demo corpus: articles' gold main text, spread over the demo sites. */
export function demoDocuments(count: number): IndexDocument[] {
  const perSite = Math.ceil(count / DEMO_SITE_NAMES.length);
  const documents = DEMO_SITE_NAMES.flatMap((name) =>
    demoSite(name, { articles: perSite })
      .pages.filter((page) => page.kind === 'article')
      .map((page, i): IndexDocument => {
        const url = `http://${name}.demo${page.path}`;
        return {
          docId: documentIdFor(name, url),
          pageId: i + 1,
          site: name,
          url,
          title: page.gold.split('\n')[0] ?? '',
          pageTitle: `${page.gold.split('\n')[0] ?? ''} | ${name}`,
          mainText: page.gold,
          templateVersion: 1,
          extractedAt: new Date(),
        };
      }),
  );
  return documents.slice(0, count);
}

/**
 * `pnpm bench index`: documents/s into a real Elasticsearch (`ELASTICSEARCH_URL`, else a local
 * node started here), the same documents written through the bulk helper in batches and one
 * request per document, each into its own fresh index, in one run. The ratio is what counts: the
 * node shares this machine.
 */
export async function benchIndexCommand(flags: IndexBenchFlags): Promise<void> {
  const write = (text: string) => process.stdout.write(text);
  const configured = loadEnv().ELASTICSEARCH_URL;
  const local = configured ? undefined : await startLocalElasticsearch();
  const url = configured ?? (local?.url as string);
  const client = new Client({ node: url });
  const documents = demoDocuments(flags.documents);
  const bytes = documents.reduce((sum, doc) => sum + doc.mainText.length, 0);
  write(`${documents.length} demo documents (${(bytes / 1e6).toFixed(1)} MB of main text) into Elasticsearch at ${url}\n`);
  const aliases: string[] = [];
  try {
    const bulkAlias = `winnow-bench-${randomBytes(4).toString('hex')}`;
    aliases.push(bulkAlias);
    const bulkIndex = new ElasticsearchIndex({ url, alias: bulkAlias });
    await bulkIndex.ensureReady();
    let started = performance.now();
    for (let start = 0; start < documents.length; start += flags.batch) await bulkIndex.upsert(documents.slice(start, start + flags.batch));
    await bulkIndex.refresh();
    const bulkSeconds = (performance.now() - started) / 1000;
    const bulkCount = await bulkIndex.count();
    await bulkIndex.close();

    const singleAlias = `winnow-bench-${randomBytes(4).toString('hex')}`;
    aliases.push(singleAlias);
    await client.indices.create({ index: `${singleAlias}-v1`, ...INDEX_BODY(0), aliases: { [singleAlias]: { is_write_index: true } } });
    started = performance.now();
    for (const doc of documents) {
      await client.index({
        index: singleAlias,
        id: doc.docId,
        version: doc.extractedAt.getTime(),
        version_type: 'external_gte',
        document: {
          doc_id: doc.docId,
          page_id: doc.pageId,
          site: doc.site,
          url: doc.url,
          title: doc.title,
          main_text: doc.mainText,
          template_version: doc.templateVersion,
          extracted_at: doc.extractedAt.toISOString(),
        },
      });
    }
    await client.indices.refresh({ index: singleAlias });
    const singleSeconds = (performance.now() - started) / 1000;
    const singleCount = (await client.count({ index: singleAlias })).count;

    write(
      table(
        ['writes', 'documents', 'seconds', 'documents/s', 'vs one-by-one'],
        [
          [
            `bulk helper, batches of ${flags.batch}`,
            String(bulkCount),
            bulkSeconds.toFixed(2),
            (documents.length / bulkSeconds).toFixed(0),
            `${(singleSeconds / bulkSeconds).toFixed(1)}x`,
          ],
          ['one request per document', String(singleCount), singleSeconds.toFixed(2), (documents.length / singleSeconds).toFixed(0), '1.0x'],
        ],
      ),
    );
  } finally {
    for (const alias of aliases) await client.indices.delete({ index: `${alias}-v1` }).catch(() => undefined);
    await client.close();
    await local?.stop();
  }
}
