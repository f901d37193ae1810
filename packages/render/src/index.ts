export { BrowserUnavailableError, launchChromium } from './chromium.js';
export { PageRenderer } from './renderer.js';
