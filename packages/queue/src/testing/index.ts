export { freePort, startRedisServer, type RedisServer } from './redisServer.js';
