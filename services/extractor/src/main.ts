#!/usr/bin/env node
import { runStandalone, startReconciler } from '@winnow/runtime';
import { startExtractor } from './index.js';

await runStandalone('extractor', async (rt) => [startExtractor(rt), await startReconciler(rt)]);
