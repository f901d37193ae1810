export { BLOCK_TAGS, INLINE_BLOCK_TAGS, SKIPPED_TAGS } from './blockTags.js';
export { buildBlockTree, LINE_BREAK, type Block, type BlockItem, type BlockTree, type BlockTreeOptions, type PathMode } from './blockTree.js';
export {
  atomicUnits,
  DEFAULT_CE_PARAMS,
  extractWithContentExtractor,
  isRepeated,
  prepareContentExtractor,
  RepeatIndex,
  type AtomicUnit,
  type ContentExtractorModel,
  type ContentExtractorParams,
} from './contentExtractor.js';
export { decodeHtml, type DecodedHtml } from './decode.js';
export { compileTemplate, detect, type CompiledTemplate } from './detect.js';
export { ExtractionError, type ExtractionErrorCode } from './errors.js';
export { cosine, featureVector, type FeatureVector } from './features.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { METHOD_NAMES, methodByName, templateMethodByName, type ExtractionMethod, type PageExtractor, type SinglePageMethod, type TemplateMethod } from './methods.js';
export { DEFAULT_FASTCE_PARAMS, prepareTemplate, type PreparedTemplate, type PrepareOptions } from './prepare.js';
export { renderBlock, type TextLine } from './render.js';
export type { ExtractedBlock, ExtractionResult } from './result.js';
export { parseTemplate, TEMPLATE_SCHEMA_VERSION, type FastCeParams, type StoredBlock, type Template } from './template.js';
export { clusterFor, clusterPages, structureOf, urlPattern, type ClusterOptions, type ClusterShape, type PageCluster, type SitePage } from './clusters.js';
export { extractMainBlock } from './mainBlock.js';
export { documentTitle } from './title.js';
export { extractWithVge, VISUAL_DISTANCE_THRESHOLD, type RenderedElement, type RenderedPage } from './vge.js';
