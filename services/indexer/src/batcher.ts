/**
 * Collects items and hands them to `flush` in batches: when `size` items wait, or `intervalMs`
 * after the first one arrived. `flush` answers each item with its result or its own error; each
 * `add` resolves with its item's result once the batch was flushed, and rejects with its item's
 * error or the batch's, so a queue job completes only once its document is really written.
 */
export class Batcher<Item, Result> {
  #pending: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: (items: Item[]) => Promise<Map<Item, Result | Error>>,
    private readonly size: number,
    private readonly intervalMs: number,
  ) {}

  add(item: Item): Promise<Result> {
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
      const outcomes = await this.flush(batch.map((entry) => entry.item));
      for (const entry of batch) {
        const outcome = outcomes.has(entry.item) ? outcomes.get(entry.item) : new Error(`the batch gave no outcome for ${String(entry.item)}`);
        if (outcome instanceof Error) entry.reject(outcome);
        else entry.resolve(outcome as Result);
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
