export * from './scheme.js';
export * from './hex.js';
export * from './fields.js';
export * from './verify.js';
export * from './exposure.js';
