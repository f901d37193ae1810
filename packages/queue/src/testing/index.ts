export { freePort } from '@winnow/containers/freePort';
export { startRedisServer, type RedisServer } from './redisServer.js';
export { type RedisClusterServer, startRedisCluster } from './redisCluster.js';
