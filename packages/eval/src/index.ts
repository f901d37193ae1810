export { benchExtract, table, type ExtractBenchOptions } from './bench.js';
export { demoGoldPages } from './demoPages.js';
export { DatasetError, loadPages, type GoldPage } from './dataset.js';
export { evaluate, quantile, summarise, type EvaluateOptions, type EvaluationReport, type PageOutcome } from './evaluate.js';
export { siteFolds, type FoldOptions, type SiteFolds } from './protocol.js';
export { mean, pageShingleF1, shingleMatch, shingleScore, type ShingleMatch } from './shingle.js';
export { lowerCaseWords, words } from './tokens.js';
export { bowF1, lcsF1, lcsLength } from './wordF1.js';
export { EVAL_METHOD_NAMES, openScoringMethod, type AsyncPageExtractor, type ScoringMethod } from './methods.js';
