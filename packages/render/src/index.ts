export { BrowserUnavailableError, PageRenderer } from './renderer.js';
