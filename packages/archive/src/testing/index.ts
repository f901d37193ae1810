export { checkWarc, type CheckedRecord } from './checkWarc.js';
export {
  type LocalS3Proxy,
  type LocalS3ProxyOptions,
  objectStoreEnv,
  S3PROXY_CREDENTIAL,
  S3PROXY_IDENTITY,
  S3PROXY_LAUNCHER,
  startLocalS3Proxy,
} from './localS3Proxy.js';
