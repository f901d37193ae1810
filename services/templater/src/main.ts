#!/usr/bin/env node
import { runStandalone, startReconciler } from '@winnow/runtime';
import { startTemplater } from './index.js';

await runStandalone('templater', async (rt) => [await startTemplater(rt), await startReconciler(rt)]);
