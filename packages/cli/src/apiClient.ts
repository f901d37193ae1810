import type { IncomingMessage } from 'node:http';
import type { ApiToken, ExportFormat, TokenScope } from '@winnow/config';
import type {
  CrawlLogPage,
  CrawlLogParams,
  HealthHistoryPage,
  HealthHistoryParams,
  PageExplanation,
  PipelineStatus,
  RemovedSite,
  SearchParams,
  search,
  SitePages,
  SitePagesParams,
  TemplateDiff,
  TemplateDiffParams,
  TemplateJob,
  TemplateVersionView,
} from '@winnow/runtime';
import type { Crawl, PageExtraction, Site, TemplateSummary } from '@winnow/storage';

/** What a search returns, in-process or through the API. */
export type SearchResult = Awaited<ReturnType<typeof search>>;

/** The API refused a request or could not be reached; the message is the API's own when it gave one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** The HTTP status the API answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** How long one request may take: the API answers operator calls quickly, and crawls are followed by polling. */
const REQUEST_TIMEOUT_MS = 60_000;

/** An ISO 8601 timestamp as `JSON.stringify` writes a `Date`. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** The API's timestamps are the `…At` fields (`createdAt`, `requestedAt`, `failedAt`…): Dates again, as in-process. */
function reviveTimestamps(key: string, value: unknown): unknown {
  return key.endsWith('At') && typeof value === 'string' && TIMESTAMP.test(value) ? new Date(value) : value;
}

function describeFailure(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** An answer's body as text (the API answers in UTF-8 JSON). */
async function textOf(answer: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The Winnow HTTP API from the outside, one method per operation, each returning what the
 * operation returns in-process. Operator calls send an `operate` token; a search sends a search
 * token if there is one (the least it needs), else an operate token, else none (an API without
 * tokens searches openly). Tokens are only ever sent as the `Authorization` header.
 */
export class ApiClient {
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly tokens: readonly ApiToken[],
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  async addSite(input: Record<string, unknown>): Promise<Site> {
    return this.field<Site>(await this.request('operate', 'POST', 'sites', input), 'site');
  }

  /** `PATCH /sites/:name`: a JSON merge patch of the site's configuration. */
  async updateSite(name: string, patch: Record<string, unknown>): Promise<Site> {
    return this.field<Site>(await this.request('operate', 'PATCH', `sites/${encodeURIComponent(name)}`, patch), 'site');
  }

  async listSites(): Promise<Site[]> {
    return this.field<Site[]>(await this.request('operate', 'GET', 'sites'), 'sites');
  }

  /** `DELETE /sites/:name`: what was removed with the site. */
  async removeSite(name: string): Promise<RemovedSite> {
    return this.field<RemovedSite>(await this.request('operate', 'DELETE', `sites/${encodeURIComponent(name)}`), 'removed');
  }

  /** `PUT /sites/:name`: the site's whole configuration replaced (settings it leaves out take their defaults). */
  async replaceSite(name: string, config: Record<string, unknown>): Promise<Site> {
    return this.field<Site>(await this.request('operate', 'PUT', `sites/${encodeURIComponent(name)}`, config), 'site');
  }

  async startCrawl(name: string): Promise<Crawl> {
    return this.field<Crawl>(await this.request('operate', 'POST', `sites/${encodeURIComponent(name)}/crawl`), 'crawl');
  }

  /** The stopped (or stopping) crawl; undefined when the site had none queued or running (the API's 409). */
  async stopCrawl(name: string): Promise<Crawl | undefined> {
    try {
      return this.field<Crawl>(await this.request('operate', 'POST', `sites/${encodeURIComponent(name)}/crawl/stop`), 'crawl');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return undefined;
      throw error;
    }
  }

  async crawlLog(name: string, params: CrawlLogParams): Promise<CrawlLogPage> {
    const { crawl, page, size } = params;
    const query = queryOf({ outcome: params.outcomes?.length ? params.outcomes.join(',') : undefined, crawl, page, size });
    const log = await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/crawl/log?${query}`);
    this.field(log, 'entries');
    return log as CrawlLogPage;
  }

  /** `GET /sites/:name/pages`: the site's pages with their extraction, filtered and paged. */
  async sitePages(name: string, params: SitePagesParams): Promise<SitePages> {
    const { readAlone, empty, warnings, pageType, page, size } = params;
    const query = queryOf({ readAlone, empty, warnings, pageType, page, size });
    const pages = await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/pages?${query}`);
    this.field(pages, 'entries');
    return pages as SitePages;
  }

  /** `GET /pages?url=`: one page's extraction in full. */
  async page(url: string, site?: string): Promise<PageExtraction> {
    const query = queryOf({ url, site });
    return this.field<PageExtraction>(await this.request('operate', 'GET', `pages?${query}`), 'page');
  }

  async explainPage(url: string, site?: string): Promise<PageExplanation> {
    const query = queryOf({ url, site });
    return this.field<PageExplanation>(await this.request('operate', 'GET', `pages/explain?${query}`), 'explanation');
  }

  /** Queues a template preparation; returns its job's id. */
  async requestTemplates(name: string): Promise<string> {
    return this.field<string>(await this.request('operate', 'POST', `sites/${encodeURIComponent(name)}/templates`), 'job');
  }

  async templateJob(name: string, id: string): Promise<TemplateJob> {
    return this.field<TemplateJob>(await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/templates/jobs/${encodeURIComponent(id)}`), 'job');
  }

  async listTemplates(site?: string): Promise<TemplateSummary[]> {
    const query = site === undefined ? '' : `?site=${encodeURIComponent(site)}`;
    return this.field<TemplateSummary[]>(await this.request('operate', 'GET', `templates${query}`), 'templates');
  }

  /** `GET /sites/:name/templates/versions/:version`: one version's templates in full (`current` when no version is given). */
  async templateVersion(name: string, params: { version?: number | undefined; pageType?: string | undefined }): Promise<TemplateVersionView> {
    const query = queryOf({ pageType: params.pageType });
    const view = await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/templates/versions/${params.version ?? 'current'}?${query}`);
    this.field(view, 'templates');
    return view as TemplateVersionView;
  }

  /** `GET /sites/:name/templates/diff`: what changed between two versions. */
  async templateDiff(name: string, params: TemplateDiffParams): Promise<TemplateDiff> {
    const query = queryOf({ from: params.from, to: params.to, pageType: params.pageType });
    const diff = await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/templates/diff?${query}`);
    this.field(diff, 'pageTypes');
    return diff as TemplateDiff;
  }

  /** `GET /sites/:name/templates/health`: the site's health records, newest first, paged. */
  async templateHealth(name: string, params: HealthHistoryParams): Promise<HealthHistoryPage> {
    const query = queryOf({ since: params.since, page: params.page, size: params.size });
    const history = await this.request('operate', 'GET', `sites/${encodeURIComponent(name)}/templates/health?${query}`);
    this.field(history, 'entries');
    return history as HealthHistoryPage;
  }

  async search(params: SearchParams): Promise<SearchResult> {
    const query = queryOf({ ...params });
    const result = await this.request('search', 'GET', `search?${query}`);
    this.field(result, 'hits');
    return result as SearchResult;
  }

  async status(): Promise<PipelineStatus> {
    const status = await this.request('operate', 'GET', 'status');
    this.field(status, 'sites');
    return status as PipelineStatus;
  }

  /** True when no crawl is queued or running and no queue holds work (what `crawl --wait` waits for). */
  async isIdle(): Promise<boolean> {
    return this.field<boolean>(await this.request('operate', 'GET', 'status/idle'), 'idle');
  }

  /**
   * `GET /sites/:name/export`: the export's bytes as they arrive. Only the answer's start must come
   * within the request timeout: a large site streams for as long as it takes.
   */
  async exportSite(name: string, format: ExportFormat): Promise<AsyncIterable<Uint8Array>> {
    const token = this.tokenFor('operate');
    const answer = await this.send(`sites/${encodeURIComponent(name)}/export?${queryOf({ format })}`, {
      method: 'GET',
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    const status = answer.statusCode ?? 0;
    if (status < 200 || status > 299) {
      let message: unknown;
      try {
        message = (JSON.parse(await textOf(answer)) as { error?: unknown }).error;
      } catch {
        message = undefined;
      }
      throw new ApiError(typeof message === 'string' ? message : `HTTP ${status}`, status);
    }
    return answer;
  }

  private tokenFor(scope: TokenScope): string | undefined {
    const ofScope = (wanted: TokenScope) => this.tokens.find((token) => token.scope === wanted)?.token;
    if (scope === 'search') return ofScope('search') ?? ofScope('operate');
    const token = ofScope('operate');
    if (token === undefined) {
      throw new ApiError(`this command needs an operate token for the API at ${this.base.origin}: set WINNOW_API_TOKEN to operate:<the API's operate token>`);
    }
    return token;
  }

  /** One request; a refusal becomes an `ApiError` carrying the API's message. */
  private async request(scope: TokenScope, method: string, path: string, body?: unknown): Promise<unknown> {
    const token = this.tokenFor(scope);
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.send(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), whole: true });
    const status = answer.statusCode ?? 0;
    let text: string;
    try {
      text = await textOf(answer);
    } catch (error) {
      throw new ApiError(`the API at ${this.base.origin} stopped answering: ${describeFailure(error)}`);
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text, reviveTimestamps);
    } catch {
      throw new ApiError(`the API at ${this.base.origin} answered ${status} with something that is not JSON`);
    }
    if (status < 200 || status > 299) {
      const message = (parsed as { error?: unknown } | undefined)?.error;
      const reason = typeof message === 'string' ? message : `HTTP ${status}`;
      throw new ApiError(status === 401 || status === 403 ? `${reason} (the token comes from WINNOW_API_TOKEN)` : reason, status);
    }
    return parsed;
  }

  /**
   * Sends one request with Node's own HTTP client and resolves as the answer starts. Not `fetch`:
   * its first use loads undici, which costs a new process about as much as Node's own start, and a
   * command sent to an API is little more than that start (`pnpm bench cli`). The answer must start
   * within `REQUEST_TIMEOUT_MS`; with `whole`, it must also end by then (an export streams for as
   * long as it takes).
   */
  private async send(path: string, init: { method: string; headers: Record<string, string>; body?: string; whole?: boolean }): Promise<IncomingMessage> {
    const url = new URL(path, this.base);
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const headers = init.body === undefined ? init.headers : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
    try {
      return await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = request(url, { method: init.method, headers }, (answer) => {
          if (init.whole) answer.once('end', () => clearTimeout(timer));
          else clearTimeout(timer);
          resolve(answer);
        });
        const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS);
        outgoing.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        outgoing.end(init.body);
      });
    } catch (error) {
      throw new ApiError(`cannot reach the Winnow API at ${this.base.origin}: ${describeFailure(error)}`);
    }
  }

  /** A field of an answer, which must be there: the API's answers are checked before they are used. */
  private field<T>(answer: unknown, name: string): T {
    if (typeof answer !== 'object' || answer === null || !(name in answer)) {
      throw new ApiError(`the API at ${this.base.origin} answered without "${name}": is WINNOW_API_URL a Winnow API?`);
    }
    return (answer as Record<string, T>)[name] as T;
  }
}

/** A query string of the parameters given a value, in order: one place that leaves the unset ones out. */
function queryOf(params: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  return query;
}
