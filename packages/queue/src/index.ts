export { extractionJobId, JOB_CONTRACTS, JobPayloadError, parseJobPayload, QUEUE_NAMES, type JobPayload, type QueueName } from './contracts.js';
export { PipelineQueues, startWorker, type FailedJob, type QueueCounts, type QueueSettings, type WorkerOptions } from './queues.js';
export { redisOptionsFromUrl, RedisUnavailableError, startPrivateRedis, waitForRedis, type PrivateRedis } from './redis.js';
export { UnrecoverableError, type Worker } from 'bullmq';
