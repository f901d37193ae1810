export { BLOCK_TAGS, INLINE_BLOCK_TAGS, SKIPPED_TAGS } from './blockTags.js';
export { type Block, type BlockItem, type BlockTree, type BlockTreeOptions, buildBlockTree, LINE_BREAK, type PathMode } from './blockTree.js';
export { blockLines, type TextLine } from './blockLines.js';
export { type ClusterOptions, type ClusterShape, clusterFor, clusterPages, type PageCluster, type SitePage, urlPattern } from './clusters.js';
export {
  type AtomicUnit,
  atomicUnits,
  type ContentExtractorModel,
  type ContentExtractorParams,
  type ContentExtractorTemplate,
  compileContentExtractor,
  DEFAULT_CE_PARAMS,
  extractWithContentExtractor,
  isRepeated,
  prepareContentExtractor,
  RepeatIndex,
} from './contentExtractor.js';
export { type DecodedHtml, decodeHtml } from './decode.js';
export { ExtractionError, type ExtractionErrorCode } from './errors.js';
export { type CompiledTemplate, compileTemplate, detect } from './fastce/detect.js';
export { type PrepareOptions, prepareTemplate } from './fastce/prepare.js';
export {
  DEFAULT_FASTCE_PARAMS,
  FASTCE_PLUS_PARAMS,
  type FastCeParams,
  parseTemplate,
  type StoredBlock,
  TEMPLATE_SCHEMA_VERSION,
  type Template,
} from './fastce/template.js';
export { cosine, type FeatureVector, featureVector, terms, wordCount, words } from './features.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { extractMainBlock } from './mainBlock.js';
export {
  type ExtractionMethod,
  METHOD_NAMES,
  methodByName,
  type PreparedTemplate,
  preparedExtractor,
  SINGLE_PAGE_METHOD_NAMES,
  type SinglePageMethod,
  singlePageMethodByName,
  TEMPLATE_METHOD_NAMES,
  templateContentPaths,
  type TemplateLayoutOutline,
  type TemplateMethod,
  templateMethodByName,
} from './methods.js';
export { type PipelineTemplate, readAlone } from './pipeline/pipeline.js';
export { extractReader } from './reader/reader.js';
export type { ExtractedBlock, ExtractionResult, PageExtractor } from './result.js';
export { evenlySpread } from './sampling.js';
export { documentTitle } from './title.js';
export { extractWithVge, type RenderedElement, type RenderedPage, VISUAL_DISTANCE_THRESHOLD } from './vge.js';
