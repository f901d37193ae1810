import type { IndexDocument, SearchIndex, SearchRequest, SearchResponse } from '../searchIndex.js';

export interface HeldWrite {
  /** Resolves once a matching write has arrived and is being held. */
  held: Promise<readonly IndexDocument[]>;
  /** Lets the held write through. */
  release(): void;
}

/**
 * A search index that passes everything on to another, except that it can hold one write: tests
 * use it to act (remove a site, say) while an indexer batch has read its pages but not yet
 * written them, which is otherwise a matter of luck.
 */
export class HoldingIndex implements SearchIndex {
  #armed: { matches: (documents: readonly IndexDocument[]) => boolean; hold: (documents: readonly IndexDocument[]) => Promise<void> } | undefined;

  constructor(readonly inner: SearchIndex) {}

  get kind(): SearchIndex['kind'] {
    return this.inner.kind;
  }

  /** Holds the next write whose documents `matches` accepts, until `release`. */
  holdWrite(matches: (documents: readonly IndexDocument[]) => boolean): HeldWrite {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived!: (documents: readonly IndexDocument[]) => void;
    const held = new Promise<readonly IndexDocument[]>((resolve) => {
      arrived = resolve;
    });
    this.#armed = {
      matches,
      hold: async (documents) => {
        arrived(documents);
        await released;
      },
    };
    return { held, release };
  }

  async upsert(documents: readonly IndexDocument[]): Promise<void> {
    const armed = this.#armed;
    if (armed?.matches(documents)) {
      this.#armed = undefined;
      await armed.hold(documents);
    }
    await this.inner.upsert(documents);
  }

  ensureReady(): Promise<void> {
    return this.inner.ensureReady();
  }

  removeSite(site: string): Promise<void> {
    return this.inner.removeSite(site);
  }

  removePages(pageIds: readonly number[]): Promise<void> {
    return this.inner.removePages(pageIds);
  }

  search(request: SearchRequest): Promise<SearchResponse> {
    return this.inner.search(request);
  }

  count(site?: string): Promise<number> {
    return this.inner.count(site);
  }

  documentVersions(): Promise<Map<number, number>> {
    return this.inner.documentVersions();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
