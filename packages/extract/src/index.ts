export { BLOCK_TAGS, INLINE_BLOCK_TAGS, SKIPPED_TAGS } from './html/blockTags.js';
export { type Block, type BlockItem, type BlockTree, type BlockTreeOptions, buildBlockTree, LINE_BREAK, type PathMode } from './html/blockTree.js';
export { blockLines, type TextLine } from './html/blockLines.js';
export { type ClusterOptions, type ClusterShape, clusterFor, clusterPages, type PageCluster, type SitePage, urlPattern } from './ce/clusters.js';
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
} from './ce/contentExtractor.js';
export { type DecodedHtml, decodeHtml } from './html/decode.js';
export { ExtractionError, type ExtractionErrorCode } from './result/errors.js';
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
export { cosine, type FeatureVector, featureVector, terms, wordCount, words } from './ce/features.js';
export { DEFAULT_LIMITS, type Limits } from './html/limits.js';
export { extractMainBlock } from './mainblock/mainBlock.js';
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
} from './methods/methods.js';
export { type PipelineTemplate, readAlone } from './pipeline/pipeline.js';
export { articleHeadline } from './pipeline/articleHeadline.js';
export { extractReader } from './reader/reader.js';
export type { ExtractedBlock, ExtractionResult, PageExtractor } from './result/result.js';
export { evenlySpread } from './fastce/sampling.js';
export { documentTitle } from './html/title.js';
export { extractWithVge, type RenderedElement, type RenderedPage, VISUAL_DISTANCE_THRESHOLD } from './vge/vge.js';
export type { Decision, DecisionRecorder, TemplateDropRule } from './result/decisions.js';
export { type ExplainedLine, type Explanation, explainExtraction, type LineRule } from './explain/explain.js';
export { type ElementVerdict, INSPECTED_PAGE_POLICY, markedPage } from './explain/markup.js';
export { type SelfCheckVerdict, selfCheckVerdict } from './result/verdict.js';
