#!/usr/bin/env node
import { runStandalone, startReconciler } from '@winnow/runtime';
import { startCrawler } from './index.js';

await runStandalone('crawler', async (rt) => [startCrawler(rt), await startReconciler(rt)]);
