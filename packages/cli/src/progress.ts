import { MultiBar, Presets } from 'cli-progress';

/** Pages through the pipeline's stages, summed over the followed sites. */
export interface PipelineProgress {
  stored: number;
  extracted: number;
  indexed: number;
  /** Stored pages filed under another page of their site: they have no document of their own, so the index bar does not wait for them. */
  duplicates: number;
}

/** What following the pipeline reads, from the runtime here or through the HTTP API. */
export interface PipelineWatch {
  /** No crawl queued or running and no queued work (see `isIdle` in @winnow/runtime). */
  isIdle(): Promise<boolean>;
  progress(sites?: readonly string[]): Promise<PipelineProgress>;
}

/**
 * Waits until the pipeline is idle twice in a row (work in flight may enqueue more), drawing one
 * progress bar per stage (pages stored by the crawl, extracted, indexed) on stderr.
 */
export async function followProgress(watch: PipelineWatch, sites: readonly string[] | undefined, pollMs: number): Promise<void> {
  const bars = new MultiBar({ stream: process.stderr, hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
  const bar = (stage: string) => bars.create(0, 0, {}, { format: `${stage.padEnd(9)} {bar} {value}/{total}` });
  const stages = { stored: bar('crawled'), extracted: bar('extracted'), indexed: bar('indexed') };
  const tick = async () => {
    const progress = await watch.progress(sites);
    for (const [stage, stageBar] of Object.entries(stages)) {
      stageBar.setTotal(Math.max(stage === 'indexed' ? progress.stored - progress.duplicates : progress.stored, 1));
      stageBar.update(progress[stage as keyof typeof stages]);
    }
  };
  try {
    let idleChecks = 0;
    while (idleChecks < 2) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      await tick();
      idleChecks = (await watch.isIdle()) ? idleChecks + 1 : 0;
    }
    await tick();
  } finally {
    bars.stop();
  }
}
