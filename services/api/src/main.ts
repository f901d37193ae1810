#!/usr/bin/env node
import { runStandalone } from '@winnow/runtime';
import { startApi } from './index.js';

await runStandalone('api', async (rt) => [await startApi(rt)]);
