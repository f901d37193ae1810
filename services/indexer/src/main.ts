#!/usr/bin/env node
import { runStandalone } from '@winnow/runtime';
import { startIndexer } from './index.js';

await runStandalone('indexer', (rt) => [startIndexer(rt)]);
