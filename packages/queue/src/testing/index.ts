export { freePort, startRedisServer, type RedisServer } from './redisServer.js';
export { type RedisClusterServer, startRedisCluster } from './redisCluster.js';
