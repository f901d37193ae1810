export { type PipelineState, PipelineMetrics, seriesNames } from './metrics.js';
