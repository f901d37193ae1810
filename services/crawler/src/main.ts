#!/usr/bin/env node
import { runStandalone } from '@winnow/runtime';
import { startCrawler } from './index.js';

await runStandalone('crawler', (rt) => [startCrawler(rt)]);
