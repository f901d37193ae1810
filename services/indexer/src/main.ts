#!/usr/bin/env node
import { runStandalone, startReconciler } from '@winnow/runtime';
import { startIndexer } from './index.js';

await runStandalone('indexer', async (rt) => [startIndexer(rt), await startReconciler(rt)]);
