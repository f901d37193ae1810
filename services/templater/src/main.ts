#!/usr/bin/env node
import { runStandalone } from '@winnow/runtime';
import { startTemplater } from './index.js';

await runStandalone('templater', async (rt) => [await startTemplater(rt)]);
