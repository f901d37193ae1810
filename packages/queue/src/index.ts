export {
  extractionJobId,
  indexJobId,
  JOB_CONTRACTS,
  JobPayloadError,
  parseJobPayload,
  QUEUE_NAMES,
  TEMPLATE_JOB_RESULT,
  type JobPayload,
  type PageTypeOutcome,
  type PreparationOutcome,
  type QueueName,
  type TemplateJobResult,
} from './contracts.js';
export { type JobAttempt, PipelineQueues, startWorker, type FailedJob, type QueueCounts, type QueueSettings, type WorkerOptions } from './queues.js';
export {
  closeRedisConnection,
  openRedisClient,
  redisConnection,
  redisOptionsFromUrl,
  RedisUnavailableError,
  startPrivateRedis,
  untaggedPrefix,
  waitForRedis,
  type PrivateRedis,
  type RedisClient,
} from './redis.js';
export { redisName, RedisWatch, type RedisWatchLog, type WatchedRedis } from './redisWatch.js';
export { UnrecoverableError, type Worker } from 'bullmq';
