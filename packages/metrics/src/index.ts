export { listenForMetrics, type MetricsListener } from './listener.js';
export { type PipelineState, PipelineMetrics, seriesNames } from './metrics.js';
