// The Winnow console: screens drawn from the API's JSON, with the operate token the user signed
// in with (kept in sessionStorage: this tab only). Every value is put in the page as text, never
// as HTML, except search highlights, whose only markup (<mark>) is rebuilt as elements.

const TOKEN_KEY = 'winnow-token';
const screen = document.getElementById('screen');
const header = document.querySelector('header');
const loginForm = document.getElementById('login');

/** The API's refusal: its message and code (the one error shape). */
class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
  }
}

/** Calls the API with the signed-in token; a JSON body goes as application/json (the API accepts no other). */
async function api(method, path, body) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = response.headers.get('content-type')?.includes('json') ? await response.json() : undefined;
  if (response.status === 401) signOut('the token was refused: sign in again');
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

/** An element with attributes (`on*` functions become listeners) and children (strings become text). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY))
    if (child !== undefined && child !== null && child !== false) element.append(child instanceof Node ? child : String(child));
  return element;
}

const table = (headings, rows) =>
  h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((heading) => h('th', {}, heading)),
      ),
    ),
    h('tbody', {}, rows),
  );
const number = (value) => h('td', { class: 'number' }, value ?? 0);
const when = (value) => (value ? new Date(value).toLocaleString() : '');
const hashOf = (path, params = {}) => `#${path}${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ''}`;
const link = (text, path, params) => h('a', { href: hashOf(path, params) }, text);
const message = (text, kind = 'error') => h('p', { class: kind }, text);

/** Runs an action from a button, showing its refusal beside it. */
function action(label, run, attributes = {}) {
  const button = h(
    'button',
    {
      type: 'button',
      ...attributes,
      onclick: async () => {
        button.disabled = true;
        try {
          await run();
        } catch (error) {
          button.after(message(error.message));
        } finally {
          button.disabled = false;
        }
      },
    },
    label,
  );
  return button;
}

let refreshTimer;
/** Shows a screen; `refreshEveryMs` redraws it while it stays on screen (live progress). */
async function show(draw, refreshEveryMs) {
  clearTimeout(refreshTimer);
  const route = location.hash;
  const redraw = async () => {
    try {
      const content = await draw();
      if (location.hash !== route) return;
      // A screen's parts that are absent (null, say: no diff asked for) draw nothing.
      screen.replaceChildren(...[content].flat(Number.POSITIVE_INFINITY).filter((part) => part !== undefined && part !== null && part !== false));
      screen.dataset.loaded = route;
    } catch (error) {
      if (location.hash === route) screen.replaceChildren(message(error.message));
    }
    if (refreshEveryMs && location.hash === route) refreshTimer = setTimeout(redraw, refreshEveryMs);
  };
  await redraw();
}

// ---- sites ----

const STAGES = [
  ['stored', 'stored'],
  ['extracted', 'extracted'],
  ['readAlone', 'read alone'],
  ['empty', 'empty'],
  ['indexed', 'indexed'],
  ['failedExtract', 'failed extract'],
  ['failedIndex', 'failed index'],
];

function crawlProgress(crawl) {
  if (!crawl) return h('span', { class: 'muted' }, 'never crawled');
  const counts = crawl.counts ?? {};
  const done = Object.entries(counts)
    .filter(([key]) => !['queued', 'inFlight', 'cancelled', 'duplicate', 'revisited'].includes(key))
    .reduce((sum, [, value]) => sum + value, 0);
  const total = done + (counts.queued ?? 0) + (counts.inFlight ?? 0);
  const share = total === 0 ? 0 : Math.round((100 * done) / total);
  return h(
    'span',
    { class: 'crawl', dataset: { state: crawl.state } },
    h('span', { class: 'progress', title: `${share}%` }, h('span', { style: `width:${share}%` })),
    `${crawl.state}: ${done} of ${total} URLs done (${counts.stored ?? 0} stored, ${counts.queued ?? 0} queued, ${counts.inFlight ?? 0} in flight)`,
  );
}

function siteForm(site) {
  const form = h(
    'form',
    { class: 'inline', id: site ? 'edit-site' : 'add-site' },
    site ? null : h('label', {}, 'Name', h('input', { name: 'name', required: true, pattern: '[a-z0-9][a-z0-9-]*' })),
    site ? null : h('label', {}, 'Seed URLs (one a line)', h('textarea', { name: 'seeds', rows: 2, cols: 40, required: true })),
    h(
      'label',
      {},
      site ? `Configuration of ${site.name} (JSON; replaces it whole)` : 'Other settings (JSON, optional)',
      h('textarea', { name: 'config', rows: site ? 12 : 3, cols: 60 }, site ? JSON.stringify(site.config, null, 2) : ''),
    ),
    h('button', { type: 'submit' }, site ? 'Save' : 'Add site'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    form.querySelector('.error')?.remove();
    try {
      const text = String(data.get('config') ?? '').trim();
      const config = text === '' ? {} : JSON.parse(text);
      if (site) {
        await api('PUT', `/sites/${encodeURIComponent(site.name)}`, config);
        location.hash = hashOf('/sites');
      } else {
        const seeds = String(data.get('seeds'))
          .split('\n')
          .map((seed) => seed.trim())
          .filter(Boolean);
        await api('POST', '/sites', { ...config, name: data.get('name'), seeds });
        form.reset();
        await route();
      }
    } catch (error) {
      form.append(message(error.message));
    }
  });
  return form;
}

async function sitesScreen() {
  const [{ sites }, status] = await Promise.all([api('GET', '/sites'), api('GET', '/status')]);
  const byName = new Map(status.sites.map((site) => [site.site, site]));
  const rows = sites.map((site) => {
    const counts = byName.get(site.name) ?? {};
    const name = encodeURIComponent(site.name);
    return h(
      'tr',
      { dataset: { site: site.name } },
      h('td', {}, link(site.name, '/site', { name: site.name }), h('div', { class: 'muted' }, (site.config.seeds ?? []).join(' '))),
      h('td', {}, crawlProgress(counts.crawl)),
      STAGES.map(([key]) => number(counts[key])),
      h(
        'td',
        {},
        action('Crawl', async () => {
          await api('POST', `/sites/${name}/crawl`);
          await route();
        }),
        ' ',
        action('Stop', async () => {
          await api('POST', `/sites/${name}/crawl/stop`);
          await route();
        }),
        ' ',
        link('Edit', '/site/edit', { name: site.name }),
        ' ',
        action('Remove', async () => {
          if (!confirm(`Remove ${site.name} with its pages, templates and index documents?`)) return;
          const { removed } = await api('DELETE', `/sites/${name}`);
          await route();
          screen.prepend(message(`removed ${site.name}: ${JSON.stringify(removed)}`, 'notice'));
        }),
      ),
    );
  });
  return [
    h('h1', {}, 'Sites'),
    table(['site', 'latest crawl', ...STAGES.map(([, label]) => label), ''], rows),
    h('h2', {}, 'Add a site'),
    siteForm(),
    failures(status),
  ];
}

/** Failed jobs (with a retry) and pages whose extraction or indexing failed, of every site or of one. */
function failures(status, site) {
  const jobs = status.failedJobs.filter((job) => !site || JSON.stringify(job.payload).includes(site));
  const pages = status.failedPages.filter((page) => !site || page.site === site);
  return [
    h('h2', {}, `Failed jobs (${jobs.length})`),
    jobs.length === 0
      ? h('p', { class: 'muted' }, 'none')
      : table(
          ['queue', 'job', 'payload', 'attempts', 'error', 'failed', ''],
          jobs.map((job) =>
            h(
              'tr',
              { dataset: { job: `${job.queue}:${job.id}` } },
              h('td', {}, job.queue),
              h('td', {}, job.id),
              h('td', {}, JSON.stringify(job.payload)),
              number(job.attempts),
              h('td', { class: 'error' }, job.error),
              h('td', {}, when(job.failedAt)),
              h(
                'td',
                {},
                action('Retry', async () => {
                  await api('POST', `/jobs/${encodeURIComponent(job.queue)}/${encodeURIComponent(job.id)}/retry`);
                  await route();
                }),
              ),
            ),
          ),
        ),
    h('h2', {}, `Failed pages (${pages.length})`),
    pages.length === 0
      ? h('p', { class: 'muted' }, 'none')
      : table(
          ['site', 'page', 'stage', 'error'],
          pages.map((page) =>
            h('tr', {}, h('td', {}, page.site), h('td', {}, page.url ?? page.pageId), h('td', {}, page.stage), h('td', { class: 'error' }, page.error)),
          ),
        ),
  ];
}

async function siteScreen(params) {
  const name = params.get('name');
  const path = encodeURIComponent(name);
  const [status, log, pages] = await Promise.all([
    api('GET', '/status'),
    api('GET', `/sites/${path}/crawl/log?outcome=refused,failed,disallowed&size=100`),
    api('GET', `/sites/${path}/pages?size=100`),
  ]);
  const counts = status.sites.find((entry) => entry.site === name) ?? {};
  return [
    h('h1', {}, `Site ${name}`),
    h('p', {}, crawlProgress(counts.crawl), ' ', link('templates', '/templates', { site: name })),
    h('h2', {}, 'Pages per stage'),
    table(
      STAGES.map(([, label]) => label),
      [
        h(
          'tr',
          {},
          STAGES.map(([key]) => number(counts[key])),
        ),
      ],
    ),
    h('h2', {}, `Not admitted by the latest crawl`),
    (counts.notAdmitted ?? []).length === 0
      ? h('p', { class: 'muted' }, 'none')
      : table(
          ['reason', 'URLs'],
          counts.notAdmitted.map((entry) => h('tr', {}, h('td', {}, entry.reason), number(entry.count ?? entry.urls))),
        ),
    h('h2', {}, `Refused and failed pages (${log.total})`),
    log.entries.length === 0
      ? h('p', { class: 'muted' }, 'none')
      : table(
          ['URL', 'outcome', 'reason'],
          log.entries.map((entry) =>
            h('tr', { class: 'refused' }, h('td', {}, entry.url), h('td', {}, entry.outcome), h('td', {}, entry.reason ?? entry.error ?? '')),
          ),
        ),
    h('h2', {}, `Pages (${pages.total})`),
    table(
      ['page', 'page type', 'template', 'method', 'words', 'read alone', 'warnings'],
      pages.entries.map((page) =>
        h(
          'tr',
          {},
          h('td', {}, link(page.url, '/inspect', { url: page.url, site: name })),
          h('td', {}, page.pageType ?? ''),
          h('td', {}, page.templateVersion === null ? 'none' : `v${page.templateVersion}`),
          h('td', {}, page.method),
          number(page.wordCount),
          h('td', {}, page.readAlone ? 'yes' : ''),
          number(page.warningCount),
        ),
      ),
    ),
    failures(status, name),
  ];
}

async function editSiteScreen(params) {
  const { site } = await api('GET', `/sites/${encodeURIComponent(params.get('name'))}`);
  return [h('h1', {}, `Edit ${site.name}`), siteForm(site)];
}

// ---- page inspector ----

function urlForm(params, path, fields) {
  const form = h(
    'form',
    { class: 'inline' },
    fields.map(([name, label, size]) => h('label', {}, label, h('input', { name, value: params.get(name) ?? '', size }))),
    h('button', { type: 'submit' }, 'Go'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = Object.fromEntries([...new FormData(form)].filter(([, value]) => value !== ''));
    location.hash = hashOf(path, values);
  });
  return form;
}

async function inspectScreen(params) {
  const form = urlForm(params, '/inspect', [
    ['url', 'Page URL', 80],
    ['site', 'Site (when two crawled it)', 16],
  ]);
  if (!params.get('url')) return [h('h1', {}, 'Page inspector'), form, h('p', { class: 'muted' }, "Open a page from a site's pages, or give its URL.")];
  const query = new URLSearchParams({ url: params.get('url'), ...(params.get('site') ? { site: params.get('site') } : {}) });
  const [{ explanation }, { html }] = await Promise.all([api('GET', `/pages/explain?${query}`), api('GET', `/pages/inspect?${query}`)]);
  const { page } = explanation;
  // No script runs in the frame (sandbox without allow-scripts) and its policy fetches nothing.
  const frame = h('iframe', { sandbox: '', referrerpolicy: 'no-referrer', title: 'the page as stored, its blocks outlined' });
  frame.srcdoc = html;
  const kept = explanation.lines.filter((line) => line.kept).length;
  const facts = [
    ['site', page.site],
    ['title', page.title ?? ''],
    ['page type', page.pageType ?? 'none'],
    ['template', page.templateVersion === null ? 'none' : `version ${page.templateVersion}`],
    ['method', page.method],
    ['self-check', `${explanation.selfCheck.verdict}${explanation.selfCheck.reason === 'none' ? '' : ` (${explanation.selfCheck.reason})`}`],
    [
      'layout',
      explanation.layout
        ? `${explanation.layout.pageCount} sample pages; the page has ${Math.round(100 * explanation.layout.similarity)}% of its block paths`
        : 'none',
    ],
    ['read alone', explanation.readAlone ?? 'no'],
    ['lines', `${kept} kept, ${explanation.lines.length - kept} dropped`],
    ['stored text', explanation.matchesStored ? 'the kept lines are the stored main text' : 'differs from the re-reading (extracted by another version)'],
    ['warnings', page.warnings.length === 0 ? 'none' : page.warnings.join('; ')],
  ];
  const lines = h(
    'ol',
    { class: 'lines' },
    explanation.lines.map((line) =>
      h(
        'li',
        { class: line.kept ? 'kept' : 'dropped', title: line.reason, dataset: { block: line.block, rule: line.rule } },
        h('span', { class: 'rule' }, line.rule),
        line.text,
      ),
    ),
  );
  const previous = explanation.previous;
  const diff = previous
    ? h(
        'div',
        { class: 'diff' },
        h('p', { class: 'muted' }, `Read by the template of version ${previous.templateVersion}, against now:`),
        previous.diff.every((line) => line.change === 'same')
          ? h('p', {}, 'the same text')
          : previous.diff.map((line) =>
              h('div', { class: line.change }, `${line.change === 'added' ? '+ ' : line.change === 'removed' ? '- ' : '  '}${line.text}`),
            ),
      )
    : h('p', { class: 'muted' }, 'No earlier template version of its page type: nothing to compare with.');
  return [
    h('h1', {}, 'Page inspector'),
    form,
    h('h2', {}, page.url),
    h(
      'dl',
      { class: 'facts' },
      facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
    ),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'kept' }, 'kept'),
      h('span', { class: 'dropped' }, 'dropped'),
      h('span', { class: 'mixed' }, 'some lines kept'),
      'hover an outlined block for its rule',
    ),
    h(
      'div',
      { class: 'inspector' },
      frame,
      h(
        'div',
        {},
        h('h2', {}, 'Indexed text'),
        h('div', { class: 'panel' }, h('pre', { class: 'text', id: 'indexed-text' }, page.mainText)),
        h('h2', {}, 'Every line, and why'),
        h('div', { class: 'panel' }, lines),
        h('h2', {}, 'Against the previous extraction'),
        h('div', { class: 'panel', id: 'previous' }, diff),
      ),
    ),
  ];
}

// ---- search ----

/** A highlight fragment (HTML-escaped text with <mark> around matches) rebuilt as text and <mark> elements. */
function highlighted(fragment) {
  const decode = (text) => new DOMParser().parseFromString(`<!doctype html><body>${text.replace(/</g, '&lt;')}`, 'text/html').body.textContent;
  const parts = fragment.split(/(<mark>|<\/mark>)/);
  const out = [];
  let marked = false;
  for (const part of parts) {
    if (part === '<mark>') marked = true;
    else if (part === '</mark>') marked = false;
    else if (part !== '') out.push(marked ? h('mark', {}, decode(part)) : decode(part));
  }
  return h('p', {}, '… ', out, ' …');
}

async function searchScreen(params) {
  const form = urlForm(params, '/search', [
    ['q', 'Query ("a phrase" in quotes)', 50],
    ['site', 'Site', 16],
  ]);
  if (!params.get('q')) return [h('h1', {}, 'Search'), form];
  const query = new URLSearchParams({ q: params.get('q'), size: '20', ...(params.get('site') ? { site: params.get('site') } : {}) });
  const result = await api('GET', `/search?${query}`);
  return [
    h('h1', {}, 'Search'),
    form,
    h('p', { class: 'muted' }, `${result.total}${result.totalRelation === 'gte' ? ' or more' : ''} page(s)`),
    result.hits.map((hit) =>
      h(
        'div',
        { class: 'hit' },
        h('strong', {}, hit.title || hit.url),
        ' ',
        link('inspect', '/inspect', { url: hit.url, site: hit.site }),
        h('div', { class: 'muted' }, `${hit.site} · ${hit.url}`),
        hit.highlights.map(highlighted),
      ),
    ),
  ];
}

// ---- templates ----

async function templatesScreen(params) {
  const { sites } = await api('GET', '/sites');
  const name = params.get('site') ?? sites[0]?.name;
  const picker = h(
    'form',
    { class: 'inline' },
    h(
      'label',
      {},
      'Site',
      h(
        'select',
        { name: 'site' },
        sites.map((site) => h('option', { value: site.name, selected: site.name === name }, site.name)),
      ),
    ),
  );
  picker.addEventListener('change', () => {
    location.hash = hashOf('/templates', { site: picker.elements.site.value });
  });
  if (!name) return [h('h1', {}, 'Templates'), h('p', { class: 'muted' }, 'No site yet.')];
  const path = encodeURIComponent(name);
  const [{ templates }, health] = await Promise.all([api('GET', `/sites/${path}/templates`), api('GET', `/sites/${path}/templates/health?size=100`)]);
  const versions = [...new Set(templates.map((template) => template.version))].sort((a, b) => a - b);
  const outcome = h('div', { id: 'prepare-outcome' });
  const prepare = action(
    'Prepare now',
    async () => {
      const { job } = await api('POST', `/sites/${path}/templates`);
      outcome.replaceChildren(message(`preparing (job ${job})…`, 'muted'));
      for (;;) {
        const { job: state } = await api('GET', `/sites/${path}/templates/jobs/${encodeURIComponent(job)}`);
        if (state.state !== 'queued' && state.state !== 'running') {
          const said = state.state === 'done' ? JSON.stringify(state.result) : (state.error ?? '');
          outcome.replaceChildren(message(`${state.state}: ${said}`, state.state === 'done' ? 'notice' : 'error'));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    { id: 'prepare-now' },
  );
  const diffForm = h(
    'form',
    { class: 'inline', id: 'diff-form' },
    h(
      'label',
      {},
      'From version',
      h('input', { name: 'from', type: 'number', min: 1, value: params.get('from') ?? versions.at(-2) ?? versions[0] ?? 1, size: 4 }),
    ),
    h('label', {}, 'To version', h('input', { name: 'to', type: 'number', min: 1, value: params.get('to') ?? versions.at(-1) ?? 1, size: 4 })),
    h('button', { type: 'submit' }, 'Diff'),
  );
  diffForm.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = hashOf('/templates', { site: name, from: diffForm.elements.from.value, to: diffForm.elements.to.value });
  });
  let diff = null;
  if (params.get('from')) {
    try {
      const answer = await api(
        'GET',
        `/sites/${path}/templates/diff?from=${encodeURIComponent(params.get('from'))}&to=${encodeURIComponent(params.get('to') ?? '')}`,
      );
      diff = h('pre', { class: 'text panel', id: 'template-diff' }, JSON.stringify(answer, null, 2));
    } catch (error) {
      diff = message(error.message);
    }
  }
  const healthRows = health.entries.map((record) => {
    const share = record.pages === 0 ? 0 : record.readAlone / record.pages;
    return h(
      'tr',
      {},
      h('td', {}, when(record.measuredAt)),
      h('td', {}, record.cluster),
      h('td', {}, `v${record.version}`),
      number(record.pages),
      h('td', {}, h('span', { class: 'bar', style: `width:${Math.round(60 * share)}px` }), ` ${record.readAlone} (${Math.round(100 * share)}%)`),
      number(Math.round(record.meanWords)),
      h('td', {}, record.pages >= 10 && share >= 0.5 ? h('span', { class: 'drift' }, 'drift') : ''),
    );
  });
  return [
    h('h1', {}, 'Templates'),
    picker,
    h('p', {}, prepare, outcome),
    h('h2', {}, 'Versions per page type'),
    table(
      [
        'page type',
        'version',
        'current',
        'method',
        'URL patterns',
        'sample / pages',
        'layouts',
        'content paths',
        'pages read',
        'read alone',
        'mean words',
        'prepared',
      ],
      templates.map((template) =>
        h(
          'tr',
          {},
          h('td', {}, template.cluster),
          h('td', {}, `v${template.version}`),
          h('td', {}, template.current ? 'yes' : ''),
          h('td', {}, template.method),
          h('td', {}, template.urlPatterns.join(' ')),
          h('td', {}, `${template.sampleSize} / ${template.pageCount}`),
          number(template.layouts),
          number(template.contentPaths),
          number(template.health.pages),
          number(template.health.readAlone),
          number(Math.round(template.health.meanWords)),
          h('td', {}, when(template.createdAt)),
        ),
      ),
    ),
    h('h2', {}, 'Health over time (drift: half or more of 10+ pages read alone)'),
    healthRows.length === 0
      ? h('p', { class: 'muted' }, 'no records yet')
      : table(['measured', 'page type', 'version', 'pages', 'read alone', 'mean words', ''], healthRows),
    h('h2', {}, 'Diff between two versions'),
    diffForm,
    diff,
  ];
}

// ---- hosts ----

async function hostsScreen() {
  const { hosts } = await api('GET', '/hosts');
  return [
    h('h1', {}, 'Hosts'),
    hosts.length === 0
      ? h('p', { class: 'muted' }, 'No crawl has reached a host yet.')
      : table(
          [
            'host',
            'sites',
            'in flight',
            'queued',
            'waiting (back-off or pace)',
            'next fetch',
            'interval',
            'robots.txt',
            'back-offs',
            'fetched',
            'failed',
            'last errors',
          ],
          hosts.map((host) =>
            h(
              'tr',
              { dataset: { host: host.host } },
              h('td', {}, host.host),
              h('td', {}, host.sites.join(' ')),
              number(host.inFlight),
              number(host.queued),
              number(host.waiting),
              h('td', {}, when(host.nextFetchAt)),
              h('td', {}, host.intervalMs === null ? '' : `${host.intervalMs} ms`),
              h('td', {}, host.robots ?? 'not read by this process'),
              number(host.backoffs),
              number(host.fetched),
              number(host.failed),
              h('td', { class: 'error' }, host.lastErrors.join('\n')),
            ),
          ),
        ),
  ];
}

// ---- routing and sign-in ----

const SCREENS = {
  '/sites': [sitesScreen, 2000],
  '/site': [siteScreen, 2000],
  '/site/edit': [editSiteScreen],
  '/inspect': [inspectScreen],
  '/search': [searchScreen],
  '/templates': [templatesScreen],
  '/hosts': [hostsScreen, 2000],
};

async function route() {
  if (!sessionStorage.getItem(TOKEN_KEY)) return showLogin();
  const [path, query] = location.hash.slice(1).split('?');
  const [draw, refreshEveryMs] = SCREENS[path] ?? SCREENS['/sites'];
  header.hidden = false;
  for (const anchor of header.querySelectorAll('nav a')) anchor.classList.toggle('current', anchor.getAttribute('href') === `#${path}`);
  await show(() => draw(new URLSearchParams(query ?? '')), refreshEveryMs);
}

function showLogin(error = '') {
  clearTimeout(refreshTimer);
  header.hidden = true;
  loginForm.hidden = false;
  document.getElementById('login-error').textContent = error;
  screen.replaceChildren(loginForm);
  delete screen.dataset.loaded;
}

function signOut(reason = '') {
  sessionStorage.removeItem(TOKEN_KEY);
  showLogin(reason);
}

loginForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = new FormData(loginForm).get('token');
  sessionStorage.setItem(TOKEN_KEY, token);
  try {
    // An operate token reads the status; any other is refused here, not on every screen.
    await api('GET', '/status');
    loginForm.reset();
    loginForm.hidden = true;
    if (!location.hash || location.hash === '#') location.hash = '#/sites';
    else await route();
  } catch (error) {
    sessionStorage.removeItem(TOKEN_KEY);
    showLogin(error.message);
  }
});
document.getElementById('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', route);
void route();
