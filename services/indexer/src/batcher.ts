/**
 * Collects items and hands them to `flush` in batches: when `size` items wait, or `intervalMs`
 * after the first one arrived. Each `add` resolves when its batch was flushed, and rejects with the
 * batch's error or with its own (`flush` returns the items it could not take, with the reason),
 * so a queue job completes only once its document is really written.
 */
export class Batcher<Item> {
  #pending: { item: Item; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: (items: Item[]) => Promise<Map<Item, Error>>,
    private readonly size: number,
    private readonly intervalMs: number,
  ) {}

  add(item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      if (this.#pending.length >= this.size) void this.#flushNow();
      else this.#timer ??= setTimeout(() => void this.#flushNow(), this.intervalMs);
    });
  }

  async #flushNow(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    try {
      const refused = await this.flush(batch.map((entry) => entry.item));
      for (const entry of batch) {
        const error = refused.get(entry.item);
        if (error) entry.reject(error);
        else entry.resolve();
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
