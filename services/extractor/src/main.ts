#!/usr/bin/env node
import { runStandalone } from '@winnow/runtime';
import { startExtractor } from './index.js';

await runStandalone('extractor', (rt) => [startExtractor(rt)]);
